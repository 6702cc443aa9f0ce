/**
 * A thin HTTP client for tests: real requests to the running gateway, with the versioning
 * headers and `beta=true` filled in unless a test says otherwise.
 */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiRequestOptions {
  body?: unknown;
  rawBody?: string | Uint8Array | FormData;
  headers?: Record<string, string | null>;
  /** Query string without `beta`; pass `beta: null` in `query` to omit it. */
  query?: Record<string, string | null | undefined>;
}

export const VERSION_HEADERS = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'managed-agents-2026-04-01',
};

export function apiClient(baseUrl: string, apiKey?: string) {
  return async function request<T = any>(method: string, path: string, options: ApiRequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, baseUrl);
    const query = { beta: 'true', ...options.query };
    for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined) url.searchParams.append(k, v);
    const headers: Record<string, string> = { ...VERSION_HEADERS };
    if (apiKey) headers['x-api-key'] = apiKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (v === null) delete headers[k];
      else headers[k] = v;
    }
    const response = await fetch(url, {
      method,
      headers,
      body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: tests assert on that themselves.
    }
    return { status: response.status, headers: response.headers, body: body as T };
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
