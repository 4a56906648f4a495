package dev.sessionstore.demo;

import dev.sessionstore.Resolution;

/**
 * What one run of {@link ConversationScript} returned to its caller that the store does not keep.
 *
 * @param firstResolve the outcome of resolving the pending tool call
 * @param lateResolve  the outcome of resolving it a second time
 * @param wakeUp       what the waiting reader got and how long it waited
 */
record DemoOutcome(Resolution firstResolve, Resolution lateResolve, WaitingRead.WakeUp wakeUp) {
}
