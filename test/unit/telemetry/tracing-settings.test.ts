import { describe, expect, test } from 'bun:test';
import { loadConfig, CommonConfig } from '@shared/config/load-config';
import { statementOperation } from '@shared/telemetry/db-statements';
import { Telemetry } from '@shared/telemetry/telemetry';
import { parseKeyValueList, tracesUrl } from '@shared/telemetry/tracing';

describe('tracing settings', () => {
  test('spans go to the traces endpoint as given, or the base endpoint + /v1/traces; neither set: no tracing at all', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' })).toBe('https://b/otlp/traces');
    expect(tracesUrl({})).toBeUndefined();
    expect(Telemetry.start('test', {}).tracingEnabled).toBe(false);
    expect(Telemetry.start('test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }).tracingEnabled).toBe(true);
  });

  test('resource attributes and headers: key=value pairs, values percent-decoded', () => {
    expect(parseKeyValueList('service.namespace=agents, deployment.environment.name=prod%20eu,broken,=x')).toEqual({
      'service.namespace': 'agents',
      'deployment.environment.name': 'prod eu',
    });
    expect(parseKeyValueList(undefined)).toEqual({});
  });

  test('only OTLP/HTTP JSON is accepted, and only the standard samplers', () => {
    expect(loadConfig(CommonConfig, {}).OTEL_EXPORTER_OTLP_PROTOCOL).toBe('http/json');
    expect(() => loadConfig(CommonConfig, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('OTEL_EXPORTER_OTLP_PROTOCOL');
    expect(() => loadConfig(CommonConfig, { OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow('OTEL_TRACES_SAMPLER');
    expect(loadConfig(CommonConfig, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toMatchObject({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: 0.25,
    });
    expect(() => loadConfig(CommonConfig, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});

test('a statement is labelled by its operation, from a bounded set', () => {
  const statementsByOperation = {
    select: ['select `id` from `deployments` where ...', '(select 1) union (select 2)'],
    insert: ['  INSERT INTO outbox ...'],
    begin: ['begin'],
    other: ['SHOW TABLES', ''],
  };
  for (const [operation, statements] of Object.entries(statementsByOperation)) {
    for (const statement of statements) expect(statementOperation(statement)).toBe(operation);
  }
});
