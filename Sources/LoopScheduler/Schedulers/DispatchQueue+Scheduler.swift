import Dispatch

/// `DispatchQueue` as a `Scheduler` with Combine's shapes (`SchedulerTimeType` wrapping
/// `DispatchTime`, `SchedulerOptions` with QoS, flags and group), and as an `EventSourceScheduler`
/// whose sources coalesce signals into one queued block. Actions run on the queue; `schedule` is
/// safe from any thread.
extension DispatchQueue: Scheduler, EventSourceScheduler {
    /// A dispatch-time instant, as Combine's `DispatchQueue.SchedulerTimeType`: it wraps a
    /// `DispatchTime` (uptime nanoseconds) and strides in nanoseconds, with literals in seconds.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The wrapped dispatch time.
        public var dispatchTime: DispatchTime

        /// Wraps `time`.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The stride from `self` to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(
                nanoseconds: Int64(bitPattern: other.dispatchTime.uptimeNanoseconds &- dispatchTime.uptimeNanoseconds))
        }

        /// `self` moved by `n` (clamped at the clock's origin).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let base = Int64(clamping: dispatchTime.uptimeNanoseconds)
            let (sum, overflow) = base.addingReportingOverflow(n.magnitude)
            let target = overflow ? (n.magnitude > 0 ? Int64.max : 0) : max(sum, 0)
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(target)))
        }

        /// Hashes the dispatch time's raw value, as Combine's.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.rawValue)
        }

        /// Equal uptimes.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// A signed span in nanoseconds (`magnitude`), as Combine's: an integer or float literal
        /// means seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Sendable
        {
            /// The span in nanoseconds (Combine calls it `magnitude`).
            public var magnitude: Int64

            /// A span of `nanoseconds`.
            public init(nanoseconds: Int64) {
                magnitude = nanoseconds
            }

            /// The span as a `DispatchTimeInterval` (`.nanoseconds`).
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(Int(magnitude))
            }

            /// A span from a `DispatchTimeInterval` (`.never` becomes the largest span).
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self.init(nanoseconds: .max)
                @unknown default: self.init(nanoseconds: .max)
                }
            }

            /// A span of `seconds` seconds, saturating.
            public init(_ seconds: Double) {
                self = .seconds(seconds)
            }

            /// `1` means one second.
            public init(integerLiteral value: Int64) {
                self = .seconds(Int(value))
            }

            /// `0.5` means half a second.
            public init(floatLiteral value: Double) {
                self = .seconds(value)
            }

            /// A span of `source` nanoseconds, as Combine's (unlike a literal, which is seconds);
            /// `nil` if it does not fit in `Int64`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let ns = Int64(exactly: source) else { return nil }
                magnitude = ns
            }

            private static func scaled(_ value: Int, by factor: Int64) -> Stride {
                let (ns, overflow) = Int64(value).multipliedReportingOverflow(by: factor)
                return Stride(nanoseconds: overflow ? (value < 0 ? .min : .max) : ns)
            }

            /// `s` seconds, saturating.
            public static func seconds(_ s: Int) -> Stride { scaled(s, by: 1_000_000_000) }
            /// `s` seconds, fractions kept, saturating; NaN gives the longest span, as Dispatch
            /// clamps a NaN interval to its largest time.
            public static func seconds(_ s: Double) -> Stride {
                let ns = (s * 1_000_000_000).rounded()
                if ns.isNaN || ns >= Double(Int64.max) { return Stride(nanoseconds: .max) }
                if ns <= Double(Int64.min) { return Stride(nanoseconds: .min) }
                return Stride(nanoseconds: Int64(ns))
            }
            /// `ms` milliseconds, saturating.
            public static func milliseconds(_ ms: Int) -> Stride { scaled(ms, by: 1_000_000) }
            /// `us` microseconds, saturating.
            public static func microseconds(_ us: Int) -> Stride { scaled(us, by: 1_000) }
            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: Int64(ns)) }

            /// Orders spans by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Sum (traps on overflow).
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.magnitude + rhs.magnitude)
            }
            /// Difference (traps on overflow).
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.magnitude - rhs.magnitude)
            }
            /// Product of the nanosecond counts (traps on overflow).
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.magnitude * rhs.magnitude)
            }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }

    /// Per-call options, as Combine's `DispatchQueue.SchedulerOptions`: the work item's QoS and
    /// flags, and a group the work is entered into. (`@unchecked Sendable`: all three are immutable
    /// values or thread-safe objects; `DispatchWorkItemFlags` just lacks the annotation.)
    public struct SchedulerOptions: @unchecked Sendable {
        /// Quality of service for the submitted block (default `.unspecified`).
        public var qos: DispatchQoS
        /// Work-item flags (default none).
        public var flags: DispatchWorkItemFlags
        /// A group to associate the block with (default none).
        public var group: DispatchGroup?

        /// Options with the given values.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// `DispatchTime.now()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(.now())
    }

    /// Zero (dispatch applies its own leeway).
    public var minimumTolerance: SchedulerTimeType.Stride {
        .nanoseconds(0)
    }

    /// Submits `action` with `async` (with the options' QoS, flags and group). Any thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let transfer = UncheckedAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { transfer.action() }
    }

    /// Submits `action` with `asyncAfter(deadline:)`; `tolerance` is not passed on. Any thread.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let transfer = UncheckedAction(action)
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { transfer.action() }
    }

    /// A `DispatchSourceTimer` on this queue firing at `date` and every `interval` with
    /// `tolerance` as leeway; cancelling (or dropping) the token cancels the timer. Any thread.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        let transfer = UncheckedAction(action)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { transfer.action() }
        timer.schedule(
            deadline: date.dispatchTime, repeating: interval.timeInterval,
            leeway: tolerance.magnitude > 0 ? tolerance.timeInterval : .nanoseconds(0))
        timer.activate()
        return AnyCancellable { timer.cancel() }
    }

    /// A source whose signals coalesce into one block queued on this queue (with `options`); see
    /// `ScheduledEventSource`. Any thread.
    public func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (ScheduledEventSource<DispatchQueue>) -> Void
    ) -> ScheduledEventSource<DispatchQueue> {
        ScheduledEventSource(scheduler: self, options: options, handler)
    }
}

/// As Combine's: the time as its uptime nanoseconds, one unsigned integer.
extension DispatchQueue.SchedulerTimeType: Codable {
    /// Decodes uptime nanoseconds.
    public init(from decoder: Decoder) throws {
        let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
        self.init(DispatchTime(uptimeNanoseconds: nanoseconds))
    }

    /// Encodes the uptime nanoseconds.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dispatchTime.uptimeNanoseconds)
    }
}

/// As Combine's: `{"magnitude": nanoseconds}`.
extension DispatchQueue.SchedulerTimeType.Stride: Codable {
    private enum CodingKeys: String, CodingKey {
        case magnitude
    }

    /// Decodes a span of nanoseconds.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(nanoseconds: try container.decode(Int64.self, forKey: .magnitude))
    }

    /// Encodes the span in nanoseconds.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(magnitude, forKey: .magnitude)
    }
}
