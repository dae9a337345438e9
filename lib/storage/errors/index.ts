export { StorageError } from './storage-error.js';
export { StorageUrlError } from './storage-url-error.js';
export { SchemaVersionError } from './schema-version-error.js';
export { CorruptRecordError } from './corrupt-record-error.js';
export { MissingDependencyError } from './missing-dependency-error.js';
export { InvalidStoreIdError } from './invalid-store-id-error.js';
export { NonSerializableError } from './non-serializable-error.js';
