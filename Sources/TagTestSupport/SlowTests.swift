#if canImport(Glibc)
import Glibc
#endif

/// Whether the soak sizes were asked for (`TAGD_SLOW_TESTS=1`): the default suite keeps to
/// sizes that still prove each property and stays within 90 s on two cores.
public let slowTestsRequested = getenv("TAGD_SLOW_TESTS") != nil

/// How many random runs a sync simulation makes: 10,000 with `TAGD_SLOW_TESTS=1`, 2,000 by
/// default (seeds 1… either way, so a default run is the first fifth of a slow one).
public let simulationRuns = slowTestsRequested ? 10_000 : 2_000
