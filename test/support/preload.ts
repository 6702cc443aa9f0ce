import { setLogSink } from '@shared/log/logger';

// Service logs would drown the test report; tests that inspect logs install their own sink.
if (process.env.TEST_LOGS !== 'true') setLogSink(() => undefined);
