// The registry of shortcuts lives below both JSONRPC and TagCore (neither may import the
// other); JSONRPC re-exports it, so its clients mark and count shortcuts as they did.
@_exported public import Shortcuts
