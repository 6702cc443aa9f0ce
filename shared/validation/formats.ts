import { FormatRegistry } from '@sinclair/typebox';
import { parseRfc3339 } from '../schema/rfc3339';

/**
 * TypeBox checks `format` only against registered formats and fails unknown ones. Elysia
 * registers its own, but service processes do not load Elysia, so the formats our schemas use
 * are registered here, once, wherever validation runs.
 */
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => parseRfc3339(value) !== undefined);
