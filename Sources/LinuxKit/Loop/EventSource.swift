/// Something an ``EventLoop`` serves whose descriptors and deadlines change as it works — a bus
/// connection, whose library adds and removes its own watches and timeouts.
///
/// The loop calls these on its thread, in this order each iteration: ``dispatch()``, then
/// ``hasPendingWork``, ``appendDescriptors(to:)`` and ``nextDeadline`` to decide how long to
/// sleep, then ``handle(_:_:)`` for each descriptor that became ready, then ``fireDeadlines(now:)``.
public protocol EventSource: AnyObject {
    /// Does the work that is ready without waiting. False when the source has ended for good (its
    /// peer went away): ``EventLoop/run()`` then returns ``EventLoop/Exit/disconnected``.
    func dispatch() -> Bool
    /// True while work is ready without waiting: the loop then looks at its descriptors without sleeping.
    var hasPendingWork: Bool { get }
    /// Appends the descriptors to wait on now. The loop hands each one's position among those this
    /// call appended back to ``handle(_:_:)``.
    func appendDescriptors(to descriptors: inout [EventLoop.Descriptor])
    /// Handles the descriptor appended at `index` in this iteration, which reported `events`.
    func handle(_ index: Int, _ events: EventLoop.Events)
    /// The nearest deadline on ``MonotonicClock`` in milliseconds, or nil for none.
    var nextDeadline: Int64? { get }
    /// Runs whatever was due at `now` (``MonotonicClock`` milliseconds).
    func fireDeadlines(now: Int64)
    /// The loop lets go of the source (it was removed, or the loop is going away).
    func detach()
}
