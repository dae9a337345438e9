export { CASSETTE_VERSION, parseCassette, readCassette, type Cassette, type CassetteHeader, type Interaction, type RecordedError, type RecordedNotice, type RecordedRequest } from './cassette.js';
export { firstDifference, type JsonDifference } from './json-diff.js';
export { RecordingProvider, type RecordingOptions } from './recording-provider.js';
export { ReplayProvider, type ReplayOptions } from './replay-provider.js';
export { SecretScrubber } from './secret-scrubber.js';
