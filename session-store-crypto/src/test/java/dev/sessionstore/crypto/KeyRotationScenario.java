package dev.sessionstore.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Key rotation on a real backend, for each adapter's re-encryption test (which checks the backend's own tables in
 * between): a value of every kind written through an {@link EncryptingSessionStore} under key {@link #OLD} (session
 * {@code s}: two events, a fork at seq 1, a resolved tool call, a summary, a session and a global checkpoint, a
 * model-call audit row), then {@link EncryptingSessionStore#reencrypt} with {@link #NEW} current, then reads with
 * {@link #NEW} alone. Each step opens its own stores from the adapter's factory and closes them.
 */
public final class KeyRotationScenario {

  /** The key id the values are first sealed under. */
  public static final String OLD = "old-key-2025";
  /** The key id the pass moves them to. */
  public static final String NEW = "new-key-2026";

  private final Supplier<SessionStore> plain;

  /**
   * A scenario on the stores {@code plain} opens: each a new store, without encryption, on the same backend and
   * namespace (with the model-call audit on), which the scenario closes.
   */
  public KeyRotationScenario(Supplier<SessionStore> plain) {
    this.plain = plain;
  }

  /** Writes a value of every kind under {@link #OLD} and returns session {@code s} as exported then. */
  public SessionArchive writeUnderOldKey() {
    try (SessionStore store = encrypting(KeyProvider.of(OLD, key(1)))) {
      store.events().appendAll("s", List.of(NewEvent.of("message", secret("e1")).withId("e1"),
          NewEvent.of("message", secret("e2")).withId("e2")));
      store.sessions().fork("s", 1);
      store.toolCalls().save(ToolCallWrite.of("c1", "s", "search").withArguments(secret("arguments")));
      store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result"));
      store.summaries().put("s", NewSummary.of(1, 2, secret("summary")));
      store.checkpoints().put(CheckpointKey.of("s", "turn"), "turn".getBytes(StandardCharsets.UTF_8));
      store.checkpoints().put(CheckpointKey.global("g"), "global".getBytes(StandardCharsets.UTF_8));
      store.modelCalls().record("s", new NewModelCall(1, "m", secret("context"), secret("usage")));
      return store.archives().export("s").orElseThrow();
    }
  }

  /** Runs the pass with {@link #OLD} and {@link #NEW} in the ring, {@link #NEW} current. */
  public ReencryptResult reencrypt() {
    return reencrypt(ReencryptOptions.defaults());
  }

  /**
   * Runs the pass as {@code options} say, with {@link #OLD} and {@link #NEW} in the ring, {@link #NEW} current, on a
   * store of its own (so a run resumed from an earlier run's cursor is in a new store, as after a crash).
   */
  public ReencryptResult reencrypt(ReencryptOptions options) {
    try (EncryptingSessionStore rotated = EncryptingSessionStore.builder(plain.get())
        .keys(KeyRing.builder().add(OLD, key(1)).add(NEW, key(2)).current(NEW).build()).build()) {
      return rotated.reencrypt(options);
    }
  }

  /**
   * Asserts that with {@link #NEW} alone session {@code s} exports as {@code written} and the global checkpoint reads
   * as written.
   */
  public void assertReadsUnderNewKeyAlone(SessionArchive written) {
    try (SessionStore alone = encrypting(KeyProvider.of(NEW, key(2)))) {
      assertThat(alone.archives().export("s").orElseThrow()).as("the session under the new key alone")
          .isEqualTo(written);
      assertThat(alone.checkpoints().get(CheckpointKey.global("g")).orElseThrow().data())
          .isEqualTo("global".getBytes(StandardCharsets.UTF_8));
    }
  }

  private SessionStore encrypting(KeyProvider keys) {
    return EncryptingSessionStore.builder(plain.get()).keys(keys).build();
  }

  private static byte[] key(int seed) {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) seed);
    return key;
  }

  private static Json secret(String kind) {
    return Json.of("{\"text\":\"secret " + kind + "\"}");
  }
}
