package dev.sessionstore.crypto;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Resolution;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import dev.sessionstore.spi.StoredValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sealing layer of an {@link EncryptingSessionStore}, between its validating layer (which checks arguments in
 * plaintext) and the adapter: seals what is written, opens what is read, and keeps idempotency on plaintext where
 * the adapter compares sealed values (see {@link SealingEventLog}, {@link SealingToolCalls}, {@link SealingArchives}).
 * Sessions, runs and retention hold nothing sealed and are forwarded as they are.
 */
final class SealingSessionStore extends ForwardingSessionStore {

  /** What the adapter may offer and this layer does not. */
  private static final Set<Capability> WITHHELD = EnumSet.of(Capability.STORED_VALUE_REWRITE, Capability.SEARCH);

  private final Values values;

  SealingSessionStore(SessionStore adapter, Values values) {
    super(adapter, Interception.none());
    this.values = values;
  }

  @Override
  protected EventLog decorate(EventLog events) {
    return new SealingEventLog(events, values);
  }

  @Override
  protected ToolCalls decorate(ToolCalls toolCalls) {
    return new SealingToolCalls(toolCalls, values);
  }

  @Override
  protected Summaries decorate(Summaries summaries) {
    return new SealingSummaries(summaries, values);
  }

  @Override
  protected Checkpoints decorate(Checkpoints checkpoints) {
    return new SealingCheckpoints(checkpoints, values);
  }

  @Override
  protected ModelCallAudit decorate(ModelCallAudit modelCalls) {
    return new SealingModelCallAudit(modelCalls, values);
  }

  @Override
  protected Archives decorate(Archives archives) {
    return new SealingArchives(archives, values, () -> delegate().supports(Capability.MODEL_CALL_AUDIT)
        && delegate().modelCalls().enabled());
  }

  /**
   * The adapter's capabilities but {@link Capability#STORED_VALUE_REWRITE} and {@link Capability#SEARCH}: below this
   * layer values are sealed, so its {@link StoredValues} is the encrypting store's own business
   * ({@link EncryptingSessionStore#reencrypt}), and its index holds the words of sealed text, which no query matches
   * ({@link EncryptingSessionStore#search}).
   */
  @Override
  public Set<Capability> capabilities() {
    Set<Capability> capabilities = EnumSet.noneOf(Capability.class);
    capabilities.addAll(delegate().capabilities());
    capabilities.removeAll(WITHHELD);
    return Collections.unmodifiableSet(capabilities);
  }

  /** Whether {@link #capabilities()} holds {@code capability}. */
  @Override
  public boolean supports(Capability capability) {
    return !WITHHELD.contains(capability) && delegate().supports(capability);
  }

  /** Refused: see {@link EncryptingSessionStore#search}. */
  @Override
  public Search search() {
    throw new UnsupportedCapabilityException(Capability.SEARCH, EncryptingSessionStore.NO_SEARCH);
  }

  /** As the delegate answers, but never its {@link StoredValues}, which hold values in sealed form. */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type == StoredValues.class ? Optional.empty() : super.unwrap(type);
  }

  /**
   * Commits the step sealed. A replayed event refused as a duplicate, or a replayed resolution rejected as stale, only
   * because the stored value is sealed differently is sent again carrying the stored sealed value, as
   * {@link SealingEventLog} does for appends.
   */
  @Override
  public StepOutcome commit(Step step) {
    Step sealed = values.seal(step);
    while (true) {
      StepOutcome outcome;
      try {
        outcome = super.commit(sealed);
      } catch (DuplicateEventException duplicate) {
        Step current = sealed;
        Optional<Event> stored = delegate().events().find(step.sessionId(), duplicate.eventId());
        sealed = stored.flatMap(event -> values.adoptStored(step.events(), current.events(), event))
            .map(events -> withEvents(current, events)).orElseThrow(() -> duplicate);
        continue;
      }
      if (outcome instanceof StepOutcome.Rejected rejected) {
        Optional<Step> replay = replayStale(step, sealed, rejected.stale());
        if (replay.isPresent()) {
          sealed = replay.get();
          continue;
        }
      }
      return values.open(outcome);
    }
  }

  /** {@code sealed} with every stale resolution carrying its stored sealed result, if each is a plaintext replay. */
  private Optional<Step> replayStale(Step plain, Step sealed, List<Resolution.Stale> stale) {
    List<ToolCallResolution> resolutions = new ArrayList<>(sealed.resolutions());
    for (Resolution.Stale one : stale) {
      int index = indexOf(plain.resolutions(), one.toolCallId());
      if (index < 0) {
        return Optional.empty();
      }
      ToolCallResolution asked = plain.resolutions().get(index);
      Optional<Json> stored = values.storedReplay(one, asked.status(), asked.result());
      if (stored.isEmpty() || stored.get().equals(resolutions.get(index).result())) {
        return Optional.empty();
      }
      resolutions.set(index, new ToolCallResolution(asked.toolCallId(), asked.status(), stored.get()));
    }
    return Optional.of(new Step(sealed.sessionId(), sealed.session(), sealed.run(), sealed.truncateFrom(),
        sealed.events(), sealed.toolCalls(), resolutions, sealed.deadlines(), sealed.summary(), sealed.checkpoints(),
        sealed.expectedLastSeq(), sealed.modelCall(), sealed.fence()));
  }

  private static int indexOf(List<ToolCallResolution> resolutions, String toolCallId) {
    for (int i = 0; i < resolutions.size(); i++) {
      if (resolutions.get(i).toolCallId().equals(toolCallId)) {
        return i;
      }
    }
    return -1;
  }

  private static Step withEvents(Step step, List<NewEvent> events) {
    return new Step(step.sessionId(), step.session(), step.run(), step.truncateFrom(), events, step.toolCalls(),
        step.resolutions(), step.deadlines(), step.summary(), step.checkpoints(), step.expectedLastSeq(),
        step.modelCall(), step.fence());
  }
}
