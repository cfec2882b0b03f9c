import JSONRPC
import TagServer
import TagTerminal
import VaultCommands

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The executable: parse flags, protect stdout, run the loop. Everything else lives in the
// modules so it can be tested without a process.

let options: Options
do {
  options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  writeText("tagd: \(error.message)\n", to: STDERR_FILENO)
  exit(2)
}

switch options.command {
case .help:
  writeText(Options.usage + "\n", to: STDOUT_FILENO)
  exit(0)
case .manPage:
  writeText(Options.manPage, to: STDOUT_FILENO)
  exit(0)
case .version:
  writeText("tagd \(ServerConfig.currentVersion)\n", to: STDOUT_FILENO)
  exit(0)
case .tryField:
  exit(TryCommand.run(options.tryOptions))
case .vault(let command):
  exit(command.run(options.vaultArguments))
case .serve:
  break
}

#if DEBUG || TAGD_SHORTCUT_SWITCHES
// Builds that can switch shortcuts off (debug, and the measuring build of BENCHMARKS.md's
// "Shortcuts" table) take the ones to switch off from the environment.
if let names = getenv("TAGD_SHORTCUTS_OFF").map({ String(cString: $0) }),
  let unknown = FastPath.switchOff(named: names)
{
  writeText("tagd: TAGD_SHORTCUTS_OFF names no shortcut '\(unknown)'\n", to: STDERR_FILENO)
  exit(2)
}
#endif

signal(SIGPIPE, SIG_IGN)
// stdout belongs to the protocol: keep a private copy of fd 1 for frames, and point fd 1 at
// stderr so that a stray print() can never corrupt the stream.
let protocolOutput = dup(STDOUT_FILENO)
dup2(STDERR_FILENO, STDOUT_FILENO)

var logDescriptor = STDERR_FILENO
if let path = options.logFile {
  logDescriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
  if logDescriptor < 0 {
    writeText("tagd: cannot open log file \(path)\n", to: STDERR_FILENO)
    exit(2)
  }
}

var loop = StdioLoop(
  input: STDIN_FILENO,
  output: protocolOutput,
  log: LogSink(level: options.logLevel, descriptor: logDescriptor),
  connection: Connection(config: options.config, framing: options.framing),
  watchedProcess: options.clientProcessID,
  worker: VaultWorker(
    maxNoteBytes: options.maxNoteBytes,
    holdPath: getenv("TAGD_HOLD_INDEXING").map { String(cString: $0) },
    watches: getenv("TAGD_NO_WATCH") == nil
  )
)
exit(loop.run())
