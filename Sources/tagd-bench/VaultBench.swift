#if canImport(Glibc)
import Glibc
#endif

/// The vault workload of `tagd-bench --vault` (issue 31's speed and memory figures).
///
/// `tagd tags` and `tagd rename` on generated vaults, printed as a Markdown section (pasted into
/// BENCHMARKS.md's hand-written part). Never run by the tests.
///
/// Vaults of 1k, 10k and 100k notes of about 500 bytes: 90 % Markdown with YAML front matter
/// (3–6 tags, flow or block lists) and 1–3 inline tags in the body, 10 % Org with
/// `#+FILETAGS:` and heading tags; tags drawn from a Zipf vocabulary of 5,000 (weight 1/rank),
/// 100 notes per folder, written under `$TMPDIR` and removed afterwards.
enum VaultBench {
  /// One timed run of a command.
  struct Run {
    var seconds: Double
    /// User plus system CPU time.
    var cpu: Double
    /// Peak resident set, KiB (`ru_maxrss`).
    var peakKiB: Int
    var status: Int32
  }

  /// Runs `path` with `arguments`, stdout and stderr to /dev/null; wall time and peak RSS.
  static func run(_ path: String, _ arguments: [String]) -> Run {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = Clock.seconds()
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
      return Run(seconds: 0, cpu: 0, peakKiB: 0, status: -1)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return Run(
      seconds: Clock.seconds() - start,
      cpu: cpu,
      peakKiB: Int(usage.ru_maxrss),
      status: (status >> 8) & 0xff
    )
  }

  /// The vocabulary: 5,000 distinct tags made of syllables (`kalo`, `minesa`, …).
  static let vocabulary: [String] = {
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"]
    return (0..<5000).map { index in
      var name = ""
      var rest = index
      repeat {
        name += syllables[rest % 10]
        rest /= 10
      } while rest > 0
      return name + (index < 10 ? "ta" : "")
    }
  }()

  /// Cumulative Zipf weights (1/rank) over the vocabulary.
  static let cumulative: [Double] = {
    var total = 0.0
    return (1...5000).map { rank in
      total += 1.0 / Double(rank)
      return total
    }
  }()

  /// A seeded generator (SplitMix64).
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
  }

  static func zipfTag(_ random: inout Random) -> String {
    let target = random.unit() * (cumulative.last ?? 1)
    var low = 0
    var high = cumulative.count - 1
    while low < high {
      let mid = (low + high) / 2
      if cumulative[mid] < target { low = mid + 1 } else { high = mid }
    }
    return vocabulary[low]
  }

  static let words = [
    "the", "note", "about", "a", "meeting", "with", "plans", "for", "next", "week", "and",
    "some", "ideas", "to", "follow", "up", "on", "later", "read", "write", "café", "review",
  ]

  /// The text of note `index`: about 500 bytes.
  static func note(_ index: Int, org: Bool, _ random: inout Random) -> String {
    var tags: [String] = []
    for _ in 0..<(3 + random.below(4)) {
      let tag = zipfTag(&random)
      if !tags.contains(tag) { tags.append(tag) }
    }
    var body = ""
    let inline = 1 + random.below(3)
    var placed = 0
    while body.utf8.count < 400 {
      if placed < inline && random.below(8) == 0 {
        body += (org ? "" : "#") + zipfTag(&random) + " "
        placed += 1
      }
      body += words[random.below(words.count)] + (random.below(12) == 0 ? ".\n" : " ")
    }
    if org {
      let split = tags.count / 2
      return "#+TITLE: Note \(index)\n#+FILETAGS: :" + tags[..<split].joined(separator: ":")
        + ":\n* Heading of note \(index)          :" + tags[split...].joined(separator: ":")
        + ":\n" + body + "\n"
    }
    let list =
      index % 2 == 0
      ? "tags: [" + tags.joined(separator: ", ") + "]\n"
      : "tags:\n" + tags.map { "  - " + $0 + "\n" }.joined()
    return "---\ntitle: Note \(index)\n" + list + "---\n" + body + "\n"
  }

  /// Writes a vault of `count` notes under `root`; returns its bytes.
  static func generate(_ root: String, count: Int) -> Int {
    var random = Random(state: 31)
    var bytes = 0
    mkdir(root, 0o755)
    for index in 0..<count {
      let folder = root + "/f\(index / 100)"
      if index % 100 == 0 { mkdir(folder, 0o755) }
      let org = index % 10 == 9
      let text = Array(note(index, org: org, &random).utf8)
      bytes += text.count
      let path = folder + "/n\(index)" + (org ? ".org" : ".md")
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    return bytes
  }

  /// The regular expressions ripgrep searches with: inline tags, front-matter tag lines and
  /// items, Org tag groups.
  static let ripgrepArguments = [
    "--count-matches", "--no-messages", "-g", "*.md", "-g", "*.org",
    "-e", #"(?:^|\s)#[\p{L}\p{M}\p{N}_/-]*[\p{L}\p{M}_/-]"#,
    "-e", #"^tags:.*|^  - .*"#,
    "-e", #":[\p{L}\p{N}_@#%:]+:\s*$"#,
  ]

  /// Runs the workload and returns the Markdown section.
  static func measure(
    tagd: String,
    ripgrep: String?,
    valgrind: String?,
    quick: Bool,
    progress: (String) -> Void
  )
    -> String
  {
    let base =
      Instructions.temporaryDirectory + "/tagd-bench-vault-\(getpid())"
    mkdir(base, 0o755)
    defer { removeTree(base) }
    let sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]
    var lines: [String] = []
    lines.append(
      "| notes | bytes | `tagd tags` run 1 | run 2 | CPU (run 2) | peak RSS | `rg` run 1 | run 2 "
        + "| CPU (run 2) | tagd ÷ rg, wall (best) | tagd ÷ rg, CPU |"
    )
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    var best: [Int: Double] = [:]
    var largest = ""
    var smallest = ""
    for size in sizes {
      let root = base + "/v\(size)"
      progress("vault: writing \(size) notes…")
      let bytes = generate(root, count: size)
      largest = root
      if smallest.isEmpty { smallest = root }
      progress("vault: tagd tags and rg on \(size) notes…")
      let first = run(tagd, ["tags", root])
      let second = run(tagd, ["tags", root])
      guard first.status == 0, second.status == 0 else {
        return "tagd tags failed on the \(size)-note vault (status \(first.status))\n"
      }
      best[size] = min(first.seconds, second.seconds)
      var rgCells = ["–", "–", "–", "–", "–"]
      if let ripgrep {
        let rg1 = run(ripgrep, ripgrepArguments + [root])
        let rg2 = run(ripgrep, ripgrepArguments + [root])
        let ratio = min(first.seconds, second.seconds) / min(rg1.seconds, rg2.seconds)
        rgCells = [
          ms(rg1.seconds), ms(rg2.seconds), ms(rg2.cpu), format2(ratio) + "×",
          format2(second.cpu / rg2.cpu) + "×",
        ]
      }
      lines.append(
        "| \(size) | \(bytes) | \(ms(first.seconds)) | \(ms(second.seconds)) | \(ms(second.cpu)) | "
          + "\(max(first.peakKiB, second.peakKiB) / 1024) MiB | " + rgCells.joined(separator: " | ")
          + " |"
      )
    }
    var text = lines.joined(separator: "\n") + "\n\n"
    if let big = best[sizes.last ?? 0], let ten = best[10_000], sizes.last != 10_000 {
      text +=
        "Ratio \(sizes.last ?? 0) ÷ 10,000 notes (best of two runs): \(format2(big / ten))×.\n\n"
    }
    text += serving(
      tagd: tagd,
      valgrind: valgrind,
      small: (sizes.first ?? 0, smallest),
      large: (sizes.last ?? 0, largest),
      quick: quick,
      progress: progress
    )
    // Rename a tag carried by about 1 % of the largest vault's notes.
    let count = sizes.last ?? 0
    let carriers = tagCarrying(about: count / 100, tagd: tagd, root: largest)
    if let (tag, notes) = carriers {
      progress("vault: renaming \(tag) (\(notes) notes)…")
      let rename = run(tagd, ["rename", tag, tag + "_renamed", largest])
      let index = best[count] ?? 0
      text +=
        "Rename of `\(tag)`, carried by \(notes) of \(count) notes: \(ms(rename.seconds)) "
        + "(CPU \(ms(rename.cpu)), status \(rename.status)), \(format2(rename.seconds / index))× "
        + "the best cold index time (\(ms(index))), peak RSS \(rename.peakKiB / 1024) MiB.\n"
    }
    return text
  }

  /// The serving figures (``VaultServing``): peak RSS and completion and hover latency in the
  /// `large` vault, and the instructions of a keystroke in the `large` and the `small` one.
  static func serving(
    tagd: String,
    valgrind: String?,
    small: (notes: Int, root: String),
    large: (notes: Int, root: String),
    quick: Bool,
    progress: (String) -> Void
  ) -> String {
    var text = ""
    do throws(BenchError) {
      progress("vault: tagd serving \(large.notes) notes, peak RSS…")
      let memory = try VaultServing.memory(tagd: tagd, root: large.root)
      progress("vault: serving peak RSS \(memory.peak >> 20) MiB")
      text +=
        "tagd serving the \(Format.count(large.notes))-note vault, first index done: peak RSS "
        + "(`VmHWM`) \(Format.fixed(Double(memory.peak) / 1_048_576, 1)) MiB, RSS then "
        + "\(Format.fixed(Double(memory.now) / 1_048_576, 1)) MiB (goal: peak ≤ 64 MiB).\n\n"
      let count = quick ? 200 : 1_000
      progress("vault: completion and hover ×\(count) on \(large.notes) notes…")
      let rows = try VaultServing.latency(tagd: tagd, root: large.root, count: count)
      text += latencyTable(rows, notes: large.notes, count: count)
      guard let valgrind else {
        return text + "No valgrind on PATH: no instructions per keystroke.\n\n"
      }
      let keystrokes = quick ? 200 : 1_000
      text +=
        "Instructions per keystroke (callgrind, counting only `Connection.receive`: the message "
        + "path, not the indexing threads; (2N − N keystrokes) ÷ N, N = \(keystrokes)) "
        + "(goal: the large vault ≤ 1.2× the small one):\n\n"
        + "| keystroke | \(Format.count(small.notes)) notes | \(Format.count(large.notes)) notes "
        + "| ratio |\n|---|---:|---:|---:|\n"
      for kind in VaultServing.Keystroke.allCases {
        let figures = try [small.root, large.root].map { root throws(BenchError) in
          try VaultServing.instructions(
            kind,
            tagd: tagd,
            valgrind: valgrind,
            root: root,
            keystrokes: keystrokes,
            progress: progress
          )
        }
        text +=
          "| \(kind.name) | \(Format.count(Int(figures[0].rounded()))) | "
          + "\(Format.count(Int(figures[1].rounded()))) | \(format2(figures[1] / figures[0]))× |\n"
      }
      return text + "\n"
    } catch {
      return text + "Serving the vault failed: \(error.description)\n\n"
    }
  }

  /// The latency rows as a Markdown table with the sentence that introduces it.
  static func latencyTable(_ rows: [VaultServing.LatencyRow], notes: Int, count: Int) -> String {
    var text =
      "Requests on an open note of the \(Format.count(notes))-note vault, \(count) each, "
      + "one at a time: tagd's CPU time per request (`/proc/PID/schedstat`, the server time) "
      + "and the round trip over pipes (an upper bound of it), ms (goal: p99 ≤ 1 ms of server "
      + "time).\n\n| request | server p50 | server p99 | round trip p50 | round trip p99 |\n"
      + "|---|---:|---:|---:|---:|\n"
    for row in rows {
      let cells = [
        Sample.percentile(row.server, 0.5), Sample.percentile(row.server, 0.99),
        Sample.percentile(row.roundTrip, 0.5), Sample.percentile(row.roundTrip, 0.99),
      ].map { Format.fixed($0, 3) }
      text += "| \(row.name) | " + cells.joined(separator: " | ") + " |\n"
    }
    return text + "\n"
  }

  /// `tagd-bench --lsp`: the language server's figures only, for iterating on them — the
  /// latency rows of `--vault` in a vault of 100,000 notes (10,000 with `quick`), and with
  /// valgrind the instructions of one request of each kind in the vault of 10,000 (callgrind,
  /// counting only `Connection.receive`; (2N − N requests) ÷ N).
  ///
  /// Under callgrind the first
  /// index of 100,000 notes takes many minutes per session, and the requests depend on the
  /// vocabulary (the same 5,000 words), not on the number of notes.
  static func lsp(
    tagd: String,
    valgrind: String?,
    quick: Bool,
    progress: (String) -> Void
  )
    -> String
  {
    let base =
      Instructions.temporaryDirectory + "/tagd-bench-lsp-\(getpid())"
    mkdir(base, 0o755)
    defer { removeTree(base) }
    let notes = quick ? 10_000 : 100_000
    let root = base + "/v\(notes)"
    progress("lsp: writing \(notes) notes…")
    _ = generate(root, count: notes)
    let counted = base + "/v10000"
    if notes != 10_000 {
      progress("lsp: writing 10000 notes…")
      _ = generate(counted, count: 10_000)
    }
    var text = ""
    do throws(BenchError) {
      let count = quick ? 200 : 1_000
      progress("lsp: completion and hover ×\(count) on \(notes) notes…")
      let rows = try VaultServing.latency(tagd: tagd, root: root, count: count)
      text += latencyTable(rows, notes: notes, count: count)
      guard let valgrind else {
        return text + "No valgrind on PATH: no instructions per request.\n"
      }
      let requests = quick ? 20 : 100
      text +=
        "Instructions per request in the 10,000-note vault (callgrind, counting only "
        + "`Connection.receive`; (2N − N requests) ÷ N, N = \(requests)):\n\n"
        + "| request | instructions |\n|---|---:|\n"
      for request in VaultServing.requests(uri: "file://" + counted + "/" + VaultServing.notePath) {
        let figure = try VaultServing.instructions(
          of: request.name,
          tagd: tagd,
          valgrind: valgrind,
          root: counted,
          count: requests,
          progress: progress
        ) { count, _ in VaultServing.requestFrames(request, count: count) }
        text += "| \(request.name) | \(Format.count(Int(figure.rounded()))) |\n"
      }
      return text
    } catch {
      return text + "Serving the vault failed: \(error.description)\n"
    }
  }

  /// The tag whose note count is nearest `target`, from `tagd tags`' output.
  static func tagCarrying(about target: Int, tagd: String, root: String) -> (String, Int)? {
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    let words: [String] = [tagd, "tags", root]
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, tagd, &actions, nil, argv, environ) == 0 else { return nil }
    close(fds[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
      if n <= 0 { break }
      output += chunk[0..<n]
    }
    close(fds[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    var best: (String, Int)?
    for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: "\t")
      guard parts.count == 2, let notes = Int(parts[0]) else { continue }
      if best.map({ abs($0.1 - target) > abs(notes - target) }) ?? true {
        best = (String(parts[1]), notes)
      }
    }
    return best
  }

  static func ms(_ seconds: Double) -> String { format2(seconds * 1000) + " ms" }

  static func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  static func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
      var names: [String] = []
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      closedir(directory)
      for name in names { removeTree(path + "/" + name) }
      rmdir(path)
    } else {
      unlink(path)
    }
  }
}
