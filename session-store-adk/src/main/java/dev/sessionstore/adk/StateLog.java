package dev.sessionstore.adk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionStoreException;
import java.io.IOException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State kept as a log of deltas: the state of a store session at seq {@code n} is the fold, in seq order, of the
 * deltas its events {@code 1..n} carry (each sets keys to values or removes them; a later event wins). Appending a
 * delta is a plain append, so concurrent writers never lose one another's keys: the store orders them by seq.
 *
 * <p>Reads start from a snapshot when there is one: the checkpoint {@value #SNAPSHOT} of the store session holds
 * {@code {"seq": k, "state": {...}}}, the fold of events {@code 1..k}, and only the events after {@code k} are folded.
 * A snapshot is a pure function of the log's prefix, so whoever writes one writes the truth; a slow writer that puts
 * an older snapshot over a newer one only makes the next read fold a few more events. Snapshots are written after a
 * read that folded at least {@value #SNAPSHOT_EVERY} events past the last one, on stores with
 * {@link Capability#CHECKPOINTS}; a failed snapshot write is logged and changes nothing else.
 */
final class StateLog {

  /** Name of the snapshot checkpoint. */
  static final String SNAPSHOT = "adk.state";
  /** Events folded past the snapshot after which a read writes a new one. */
  static final int SNAPSHOT_EVERY = 64;
  private static final int PAGE = 500;
  private static final Logger LOG = LoggerFactory.getLogger(StateLog.class);

  private final SessionStore store;
  private final ObjectMapper mapper;

  StateLog(SessionStore store, ObjectMapper mapper) {
    this.store = store;
    this.mapper = mapper;
  }

  /**
   * The state of {@code storeSessionId} as of its event {@code upToSeq} (the whole log when negative), each event's
   * delta read by {@code delta} into the state object. Snapshots are used and written only when {@code snapshots}.
   */
  ObjectNode fold(String storeSessionId, long upToSeq, boolean snapshots, BiConsumer<Event, ObjectNode> delta) {
    ObjectNode state = mapper.createObjectNode();
    long from = 0;
    boolean useSnapshots = snapshots && store.supports(Capability.CHECKPOINTS);
    if (useSnapshots) {
      Checkpoint snapshot = store.checkpoints().get(CheckpointKey.of(storeSessionId, SNAPSHOT)).orElse(null);
      if (snapshot != null) {
        JsonNode stored = readSnapshot(snapshot.data());
        long seq = stored.path("seq").asLong(-1);
        if (seq >= 0 && (upToSeq < 0 || seq <= upToSeq) && stored.path("state").isObject()) {
          state = (ObjectNode) stored.get("state");
          from = seq;
        }
      }
    }
    long last = from;
    int folded = 0;
    while (true) {
      EventQuery query = EventQuery.all().after(last).first(PAGE);
      if (upToSeq >= 0) {
        if (last >= upToSeq) {
          break;
        }
        query = query.before(upToSeq + 1);
      }
      EventPage page = store.events().read(storeSessionId, query);
      for (Event event : page.items()) {
        delta.accept(event, state);
        last = event.seq();
        folded++;
      }
      if (page.nextCursor().isEmpty() || page.isEmpty()) {
        break;
      }
    }
    if (useSnapshots && folded >= SNAPSHOT_EVERY) {
      writeSnapshot(storeSessionId, last, state);
    }
    return state;
  }

  private JsonNode readSnapshot(byte[] data) {
    try {
      return mapper.readTree(data);
    } catch (IOException e) {
      LOG.warn("ignoring an unreadable ADK state snapshot: {}", e.toString());
      return mapper.createObjectNode();
    }
  }

  private void writeSnapshot(String storeSessionId, long seq, ObjectNode state) {
    ObjectNode snapshot = mapper.createObjectNode();
    snapshot.put("seq", seq);
    snapshot.set("state", state.deepCopy());
    try {
      store.checkpoints().put(CheckpointKey.of(storeSessionId, SNAPSHOT), mapper.writeValueAsBytes(snapshot));
    } catch (IOException | SessionStoreException e) {
      LOG.warn("could not write the ADK state snapshot of {} at seq {}: {}", storeSessionId, seq, e.toString());
    }
  }
}
