package dev.sessionstore.crypto;

import dev.sessionstore.Chapter;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointChange;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Resolution;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallWrite;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Which members of which records are sealed, in one place: event payloads, tool-call arguments and results, summary
 * contents, checkpoint data, model-call contexts and usage. Everything else stays in clear: ids, seqs, types, names,
 * agents, tenants, statuses, timestamps, deadlines, summary ranges and versions, session settings and metadata, runs
 * (usage and error included), tool and model names. Each sealed member names its kind in the associated data.
 * Thread-safe.
 */
final class Values {

  static final String EVENT_PAYLOAD = "event.payload";
  static final String TOOL_ARGUMENTS = "toolCall.arguments";
  static final String TOOL_RESULT = "toolCall.result";
  static final String SUMMARY_CONTENT = "summary.content";
  static final String CHECKPOINT_DATA = "checkpoint.data";
  static final String MODEL_CONTEXT = "modelCall.context";
  static final String MODEL_USAGE = "modelCall.usage";

  private final Sealer sealer;

  Values(Sealer sealer) {
    this.sealer = sealer;
  }

  /**
   * {@code sealed} (the sealed form of {@code plain}) with the events of {@code stored}'s id carrying its stored
   * sealed payload, when its plaintext equals theirs and one of them does not carry it yet; empty otherwise (a true
   * duplicate, or nothing left to adopt).
   */
  Optional<List<NewEvent>> adoptStored(List<NewEvent> plain, List<NewEvent> sealed, Event stored) {
    if (plain == null) {
      return Optional.empty();
    }
    dev.sessionstore.Json storedPlain = sealer.open(EVENT_PAYLOAD, stored.payload());
    List<NewEvent> adopted = new java.util.ArrayList<>(sealed);
    boolean changed = false;
    for (int i = 0; i < plain.size(); i++) {
      NewEvent event = plain.get(i);
      if (event == null || !event.id().equals(stored.id())) {
        continue;
      }
      if (!event.payload().equals(storedPlain)) {
        return Optional.empty();
      }
      if (!sealed.get(i).payload().equals(stored.payload())) {
        adopted.set(i, sealed.get(i).withPayload(stored.payload()));
        changed = true;
      }
    }
    return changed ? Optional.of(java.util.Collections.unmodifiableList(adopted)) : Optional.empty();
  }

  /**
   * The stored sealed result to resolve with again when {@code stale} is only stale because its stored result is
   * sealed differently: the call holds {@code status} and, opened, {@code plainResult}. Empty for a true stale.
   */
  Optional<dev.sessionstore.Json> storedReplay(Resolution.Stale stale, dev.sessionstore.ToolCallStatus status,
      dev.sessionstore.Json plainResult) {
    return stale.current()
        .filter(call -> call.status() == status && call.result() != null && sealer.keyId(call.result()).isPresent())
        .filter(call -> sealer.open(TOOL_RESULT, call.result()).equals(plainResult))
        .map(ToolCall::result);
  }

  Sealer sealer() {
    return sealer;
  }

  // Sealing what is written.

  NewEvent seal(String sessionId, NewEvent event) {
    return event == null ? null : event.withPayload(sealer.seal(sessionId, EVENT_PAYLOAD, event.payload()));
  }

  ToolCallWrite seal(ToolCallWrite call) {
    return call == null ? null
        : call.withArguments(sealer.seal(call.sessionId(), TOOL_ARGUMENTS, call.arguments()));
  }

  ToolCallResolution seal(String sessionId, ToolCallResolution resolution) {
    return new ToolCallResolution(resolution.toolCallId(), resolution.status(),
        sealer.seal(sessionId, TOOL_RESULT, resolution.result()));
  }

  NewSummary seal(String sessionId, NewSummary summary) {
    return summary == null ? null : new NewSummary(summary.fromSeq(), summary.toSeq(),
        sealer.seal(sessionId, SUMMARY_CONTENT, summary.content()), summary.version());
  }

  NewModelCall seal(String sessionId, NewModelCall call) {
    return call == null ? null : new NewModelCall(call.turn(), call.model(),
        sealer.seal(sessionId, MODEL_CONTEXT, call.context()), sealer.seal(sessionId, MODEL_USAGE, call.usage()));
  }

  byte[] sealCheckpoint(String sessionId, byte[] data) {
    return sealer.seal(sessionId, CHECKPOINT_DATA, data);
  }

  Step seal(Step step) {
    if (step == null) {
      return null;
    }
    String id = step.sessionId();
    return new Step(id, step.session(), step.run(), step.truncateFrom(),
        sealEvents(id, step.events()),
        step.toolCalls().stream().map(this::seal).toList(),
        step.resolutions().stream().map(resolution -> seal(id, resolution)).toList(),
        step.deadlines(),
        step.summary().map(summary -> seal(id, summary)),
        step.checkpoints().stream().map(change -> change.putData()
            .map(data -> CheckpointChange.put(change.name(), sealCheckpoint(id, data))).orElse(change)).toList(),
        step.expectedLastSeq(),
        step.modelCall().map(call -> seal(id, call)),
        step.fence());
  }

  /**
   * A batch sealed for {@code sessionId}; events of one id with equal payloads get the same sealed payload, so that
   * a batch repeating an event (identical duplicates) stays identical once sealed whatever the texts' spacing.
   */
  List<NewEvent> sealEvents(String sessionId, List<NewEvent> events) {
    if (events == null) {
      return null;
    }
    java.util.Map<String, NewEvent> first = new java.util.HashMap<>();
    java.util.Map<String, NewEvent> sealedFirst = new java.util.HashMap<>();
    List<NewEvent> sealed = new java.util.ArrayList<>(events.size());
    for (NewEvent event : events) {
      if (event == null) {
        sealed.add(null);
        continue;
      }
      NewEvent earlier = first.get(event.id());
      if (earlier != null && earlier.payload().equals(event.payload())) {
        sealed.add(event.withPayload(sealedFirst.get(event.id()).payload()));
      } else {
        NewEvent one = seal(sessionId, event);
        first.putIfAbsent(event.id(), event);
        sealedFirst.putIfAbsent(event.id(), one);
        sealed.add(one);
      }
    }
    return java.util.Collections.unmodifiableList(sealed);
  }

  SessionArchive seal(SessionArchive archive) {
    if (archive == null) {
      return null;
    }
    String id = archive.sessionId();
    return archive
        .withEvents(map(archive.events(), event -> withPayload(event, sealer.seal(id, EVENT_PAYLOAD,
            event.payload()))))
        .withToolCalls(map(archive.toolCalls(), call -> new ToolCall(call.id(), call.sessionId(), call.runId(),
            call.requestEventId(), call.toolName(), sealer.seal(id, TOOL_ARGUMENTS, call.arguments()), call.status(),
            sealer.seal(id, TOOL_RESULT, call.result()), call.deadline(), call.createdAt(), call.updatedAt())))
        .withSummaries(map(archive.summaries(), summary -> new Summary(summary.sessionId(), summary.fromSeq(),
            summary.toSeq(), sealer.seal(id, SUMMARY_CONTENT, summary.content()), summary.version(),
            summary.createdAt())))
        .withCheckpoints(map(archive.checkpoints(), this::sealStored))
        .withModelCalls(map(archive.modelCalls(), call -> new ModelCall(call.sessionId(), call.turn(), call.model(),
            sealer.seal(id, MODEL_CONTEXT, call.context()), sealer.seal(id, MODEL_USAGE, call.usage()),
            call.recordedAt())));
  }

  Checkpoint sealStored(Checkpoint checkpoint) {
    return checkpoint == null ? null : new Checkpoint(checkpoint.key(),
        sealCheckpoint(checkpoint.key().sessionId(), checkpoint.data()), checkpoint.updatedAt());
  }

  // Opening what is read.

  Event open(Event event) {
    return withPayload(event, sealer.open(EVENT_PAYLOAD, event.payload()));
  }

  List<Event> openEvents(List<Event> events) {
    return map(events, this::open);
  }

  /**
   * What an append of {@code plain} returned ({@code stored}, one event per element, in order), each event carrying
   * its plaintext; {@code sealed} is {@code plain} as {@link #sealEvents} sealed it. An event whose stored payload
   * is that sealed payload carries the element's plaintext, with nothing decrypted (sealing is deterministic: that
   * payload holds exactly that text); any other (a replay whose stored payload was adopted: sealed under another
   * key, or its plaintext spelled differently, whose stored text is the answer) is opened.
   */
  List<Event> openAppended(List<NewEvent> plain, List<NewEvent> sealed, List<Event> stored) {
    List<Event> opened = new java.util.ArrayList<>(stored.size());
    for (int i = 0; i < stored.size(); i++) {
      Event event = stored.get(i);
      dev.sessionstore.Json sent = sealed.get(i).payload();
      boolean asSent = event.payload() == sent || event.payload().text().equals(sent.text());
      opened.add(asSent ? withPayload(event, plain.get(i).payload()) : open(event));
    }
    return java.util.Collections.unmodifiableList(opened);
  }

  EventPage open(EventPage page) {
    return new EventPage(openEvents(page.items()), page.nextCursor());
  }

  ToolCall open(ToolCall call) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
        sealer.open(TOOL_ARGUMENTS, call.arguments()), call.status(), sealer.open(TOOL_RESULT, call.result()),
        call.deadline(), call.createdAt(), call.updatedAt());
  }

  Summary open(Summary summary) {
    return new Summary(summary.sessionId(), summary.fromSeq(), summary.toSeq(),
        sealer.open(SUMMARY_CONTENT, summary.content()), summary.version(), summary.createdAt());
  }

  Checkpoint open(Checkpoint checkpoint) {
    return new Checkpoint(checkpoint.key(), sealer.open(CHECKPOINT_DATA, checkpoint.data()), checkpoint.updatedAt());
  }

  ModelCall open(ModelCall call) {
    return new ModelCall(call.sessionId(), call.turn(), call.model(), sealer.open(MODEL_CONTEXT, call.context()),
        sealer.open(MODEL_USAGE, call.usage()), call.recordedAt());
  }

  Revival open(Revival revival) {
    return new Revival(revival.summary().map(this::open), openEvents(revival.events()), revival.lastSeq());
  }

  Chapter open(Chapter chapter) {
    return new Chapter(open(chapter.summary()), chapter.previous().map(this::open), openEvents(chapter.events()));
  }

  Resolution open(Resolution resolution) {
    if (resolution instanceof Resolution.Resolved resolved) {
      return new Resolution.Resolved(open(resolved.call()));
    }
    if (resolution instanceof Resolution.Replayed replayed) {
      return new Resolution.Replayed(open(replayed.call()));
    }
    Resolution.Stale stale = (Resolution.Stale) resolution;
    return new Resolution.Stale(stale.toolCallId(), stale.current().map(this::open));
  }

  StepOutcome open(StepOutcome outcome) {
    if (outcome instanceof StepOutcome.Rejected rejected) {
      return new StepOutcome.Rejected(rejected.stale().stream().map(stale -> (Resolution.Stale) open(stale)).toList());
    }
    StepResult result = ((StepOutcome.Committed) outcome).result();
    return new StepOutcome.Committed(new StepResult(result.session(), result.run(), result.removed(),
        openEvents(result.events()), map(result.toolCalls(), this::open),
        map(result.resolutions(), this::open), result.summary().map(this::open),
        map(result.checkpoints(), this::open), result.modelCall().map(this::open)));
  }

  SessionArchive open(SessionArchive archive) {
    return archive.withEvents(openEvents(archive.events()))
        .withToolCalls(map(archive.toolCalls(), this::open))
        .withSummaries(map(archive.summaries(), this::open))
        .withCheckpoints(map(archive.checkpoints(), this::open))
        .withModelCalls(map(archive.modelCalls(), this::open));
  }

  <T> Optional<T> open(Optional<T> value, UnaryOperator<T> open) {
    return value.map(open);
  }

  static Event withPayload(Event event, dev.sessionstore.Json payload) {
    return new Event(event.sessionId(), event.seq(), event.id(), event.type(), event.runId(), event.agentId(),
        event.parentId(), payload, event.timestamp());
  }

  static <T> List<T> map(List<T> values, UnaryOperator<T> change) {
    return values.stream().map(change).toList();
  }
}
