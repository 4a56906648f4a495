package dev.sessionstore.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.EncryptionKeyException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.memory.InMemorySessionStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Key rotation with {@link EncryptingSessionStore#reencrypt} over the in-memory store: everything written under key A
 * reads under key B alone after a pass; a dry run writes nothing; a limited pass resumes where it stopped; writers
 * beside a pass lose nothing.
 */
class ReencryptionTest {

  private static final byte[] KEY_A = key(1);
  private static final byte[] KEY_B = key(2);
  /** The values {@link #writeUnderA} stores: 3 events (the fork shares 2), 2 arguments, 1 result, 1 summary, 2 checkpoints, 2 audit. */
  private static final long VALUES = 11;

  private final SessionStore inner = InMemorySessionStore.builder().modelCallAudit(true).build();

  @AfterEach
  void close() {
    inner.close();
  }

  private static byte[] key(int seed) {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) seed);
    return key;
  }

  private EncryptingSessionStore underA() {
    return EncryptingSessionStore.builder(inner).keys(KeyProvider.of("A", KEY_A)).build();
  }

  private EncryptingSessionStore rotatedToB() {
    return EncryptingSessionStore.builder(inner)
        .keys(KeyRing.builder().add("A", KEY_A).add("B", KEY_B).current("B").build()).build();
  }

  private EncryptingSessionStore onlyB() {
    return EncryptingSessionStore.builder(inner).keys(KeyProvider.of("B", KEY_B)).build();
  }

  private static Json secret(String name) {
    return Json.of("{\"secret\": \"" + name + "\"}");
  }

  /** Every kind of sealed value under key A, a fork sharing three events included. */
  private static void writeUnderA(SessionStore store) {
    store.events().appendAll("s", List.of(NewEvent.of("message", secret("e1")).withId("e1"),
        NewEvent.of("message", secret("e2")).withId("e2"), NewEvent.of("message", secret("e3")).withId("e3")));
    store.sessions().fork("s", 2);
    store.toolCalls().save(ToolCallWrite.of("c1", "s", "search").withArguments(secret("args-1")));
    store.toolCalls().save(ToolCallWrite.of("c2", "s", "search").withArguments(secret("args-2")));
    store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result-1"));
    store.summaries().put("s", NewSummary.of(1, 2, secret("summary")));
    store.checkpoints().put(CheckpointKey.of("s", "turn"), "turn state".getBytes(StandardCharsets.UTF_8));
    store.checkpoints().put(CheckpointKey.global("runner"), "global state".getBytes(StandardCharsets.UTF_8));
    store.modelCalls().record("s", new NewModelCall(1, "m", secret("context"), secret("usage")));
  }

  /** Everything {@code store} reads: the sessions' archives and the global checkpoints, decrypted. */
  private static List<Object> everything(SessionStore store) {
    List<Object> all = new ArrayList<>();
    store.sessions().list(dev.sessionstore.SessionQuery.all()).items().forEach(session ->
        all.add(store.archives().export(session.id()).orElseThrow()));
    store.archives().globalCheckpoints().forEach(checkpoint -> all.add(checkpoint.key() + "="
        + new String(checkpoint.data(), StandardCharsets.UTF_8)));
    return all;
  }

  @Test
  @DisplayName("Written under A, rotated to B, re-encrypted: with A gone from the ring everything reads as written, "
      + "and a second pass finds every value current")
  void rotation() {
    EncryptingSessionStore a = underA();
    writeUnderA(a);
    List<Object> written = everything(a);

    ReencryptResult result = rotatedToB().reencrypt(ReencryptOptions.defaults());

    assertThat(result).isEqualTo(new ReencryptResult(false, VALUES, VALUES, 0, 0, 0, Optional.empty()));
    assertThat(everything(onlyB())).as("what the store reads under B alone").isEqualTo(written);
    assertThat(rotatedToB().reencrypt(ReencryptOptions.defaults()))
        .isEqualTo(new ReencryptResult(false, VALUES, 0, VALUES, 0, 0, Optional.empty()));
    assertThatThrownBy(() -> everything(underA())).as("a store holding only A after the pass")
        .isInstanceOf(EncryptionKeyException.class).hasMessageContaining("key B");
  }

  @Test
  @DisplayName("A dry run counts what would move and writes nothing: B alone still cannot open the values")
  void dryRunWritesNothing() {
    writeUnderA(underA());
    List<Object> stored = everything(inner);

    ReencryptResult dry = rotatedToB().reencrypt(ReencryptOptions.defaults().withDryRun(true));

    assertThat(dry).isEqualTo(new ReencryptResult(true, VALUES, VALUES, 0, 0, 0, Optional.empty()));
    assertThat(everything(inner)).as("stored values after the dry run").isEqualTo(stored);
    assertThatThrownBy(() -> everything(onlyB())).isInstanceOf(EncryptionKeyException.class)
        .hasMessageContaining("key A");
  }

  @Test
  @DisplayName("A pass limited to 5 values stops with a cursor; resumed, the passes together move every value once, "
      + "reporting progress per page")
  void limitAndResume() {
    EncryptingSessionStore a = underA();
    writeUnderA(a);
    List<Object> written = everything(a);
    List<ReencryptResult> progress = new ArrayList<>();

    ReencryptResult first = rotatedToB().reencrypt(ReencryptOptions.defaults().withLimit(5)
        .withProgress(progress::add));
    assertThat(first.scanned()).isEqualTo(5);
    assertThat(first.rewritten()).isEqualTo(5);
    assertThat(first.resumeCursor()).isPresent();
    assertThat(progress).containsExactly(first);

    long rewritten = first.rewritten();
    ReencryptResult next = first;
    while (!next.complete()) {
      next = rotatedToB().reencrypt(ReencryptOptions.defaults().withLimit(4).withResumeFrom(next.resumeCursor()
          .orElseThrow()));
      assertThat(next.alreadyCurrent()).as("values a resumed pass found current").isZero();
      rewritten += next.rewritten();
    }
    assertThat(rewritten).isEqualTo(VALUES);
    assertThat(everything(onlyB())).isEqualTo(written);
  }

  @Test
  @DisplayName("Writers appending and overwriting a checkpoint under B beside a pass lose nothing: every value "
      + "opens under B alone, the checkpoint holds the writer's last bytes")
  void concurrentWritersLoseNothing() throws Exception {
    EncryptingSessionStore a = underA();
    IntStream.rangeClosed(1, 400).forEach(i -> a.events().append("s" + (i % 8),
        NewEvent.of("message", secret("old-" + i)).withId("old-" + i)));
    a.checkpoints().put(CheckpointKey.of("s0", "turn"), "0".getBytes(StandardCharsets.UTF_8));
    EncryptingSessionStore b = rotatedToB();
    AtomicBoolean done = new AtomicBoolean();
    CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
      int i = 0;
      while (!done.get() || i < 50) {
        i++;
        b.events().append("s" + (i % 8), NewEvent.of("message", secret("new-" + i)).withId("new-" + i));
        b.checkpoints().put(CheckpointKey.of("s0", "turn"), Integer.toString(i).getBytes(StandardCharsets.UTF_8));
      }
      return i;
    });

    ReencryptResult result = b.reencrypt(ReencryptOptions.defaults());
    done.set(true);
    int writes = writer.get();

    assertThat(result.changed() + result.rewritten() + result.alreadyCurrent()).isEqualTo(result.scanned());
    EncryptingSessionStore alone = onlyB();
    long events = IntStream.range(0, 8).mapToLong(s -> alone.events()
        .read("s" + s, dev.sessionstore.EventQuery.all()).items().size()).sum();
    assertThat(events).isEqualTo(400 + writes);
    assertThat(alone.events().find("s1", "old-1").orElseThrow().payload()).isEqualTo(secret("old-1"));
    Checkpoint turn = alone.checkpoints().get(CheckpointKey.of("s0", "turn")).orElseThrow();
    assertThat(new String(turn.data(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(writes));
    assertThat(everything(alone)).hasSize(8);
  }

  @Test
  @DisplayName("Over a store without STORED_VALUE_REWRITE the pass fails naming the capability; bad options are "
      + "rejected naming the field")
  void unsupportedAndBadOptions() {
    assertThatThrownBy(() -> rotatedToB().reencrypt(null)).isInstanceOf(dev.sessionstore.InvalidArgumentException.class)
        .hasMessageContaining("options");
    assertThatThrownBy(() -> ReencryptOptions.defaults().withLimit(-1))
        .isInstanceOf(dev.sessionstore.InvalidArgumentException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> rotatedToB().reencrypt(ReencryptOptions.defaults().withResumeFrom("not a cursor!")))
        .isInstanceOf(dev.sessionstore.InvalidArgumentException.class).hasMessageContaining("cursor");
    assertThat(rotatedToB().supports(dev.sessionstore.Capability.STORED_VALUE_REWRITE))
        .as("an encrypting store keeps the capability of its adapter to itself").isFalse();
    assertThat(rotatedToB().unwrap(dev.sessionstore.spi.StoredValues.class)).isEmpty();
  }
}
