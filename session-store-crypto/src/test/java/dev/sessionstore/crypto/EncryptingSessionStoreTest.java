package dev.sessionstore.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.EncryptionKeyException;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Resolution;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.memory.InMemorySessionStore;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EncryptingSessionStoreTest {

  private static final byte[] KEY_1 = key(1);
  private static final byte[] KEY_2 = key(2);
  private static final String SECRET = "the launch code is 0000";

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

  private SessionStore encrypting(KeyProvider keys) {
    return EncryptingSessionStore.builder(inner).keys(keys).build();
  }

  private static KeyProvider ringWithK2Current() {
    return KeyRing.builder().add("k1", KEY_1).add("k2", KEY_2).current("k2").build();
  }

  private static Json secret(String name) {
    return Json.of("{\"text\":\"" + SECRET + " " + name + "\"}");
  }

  @Test
  @DisplayName("An encrypting store does not search: SEARCH is not declared, search() says why, and the wrapped "
      + "store's index holds no plaintext word")
  void searchIsRefusedAndNothingPlainIsIndexed() {
    SessionStore store = encrypting(KeyProvider.of("k1", KEY_1));
    store.events().append("s", NewEvent.of("message", secret("event")).withId("e1"));

    assertThat(inner.supports(Capability.SEARCH)).as("the wrapped store declares SEARCH").isTrue();
    assertThat(store.capabilities()).doesNotContain(Capability.SEARCH);
    assertThat(store.supports(Capability.SEARCH)).isFalse();
    assertThatThrownBy(store::search).isInstanceOfSatisfying(UnsupportedCapabilityException.class,
            refused -> assertThat(refused.capability()).isEqualTo(Capability.SEARCH))
        .hasMessageContaining("does not support SEARCH: an encrypting store does not search")
        .hasMessageContaining("only sealed payloads");
    assertThat(inner.search().find(SearchQuery.of("launch code")).hits()).as("wrapped store's hits of the plaintext")
        .isEmpty();

    store.close();
    assertThatThrownBy(store::search).isInstanceOf(StoreClosedException.class);
  }

  @Test
  @DisplayName("Every sealed kind reaches the wrapped store without its plaintext, and comes back as written")
  void nothingReachesTheStoreInClear() {
    SessionStore store = encrypting(KeyProvider.of("k1", KEY_1));
    store.commit(Step.builder("s")
        .event(NewEvent.of("message", secret("event")).withId("e1"))
        .registerToolCall(ToolCallWrite.of("c1", "s", "search").withArguments(secret("arguments")))
        .putCheckpoint("turn", (SECRET + " checkpoint").getBytes(StandardCharsets.UTF_8))
        .modelCall(NewModelCall.of(1, "model", secret("context")))
        .build());
    store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result"));
    store.summaries().put("s", NewSummary.of(1, 1, secret("summary")));
    store.checkpoints().put(CheckpointKey.global("g"), (SECRET + " global").getBytes(StandardCharsets.UTF_8));

    String stored = String.join("\n", inner.events().read("s", EventQuery.all()).items().toString(),
        inner.toolCalls().find("s", "c1").orElseThrow().toString(), inner.summaries().list("s").toString(),
        inner.modelCalls().list("s").toString(),
        new String(inner.checkpoints().get(CheckpointKey.of("s", "turn")).orElseThrow().data(),
            StandardCharsets.ISO_8859_1),
        new String(inner.checkpoints().get(CheckpointKey.global("g")).orElseThrow().data(),
            StandardCharsets.ISO_8859_1));
    assertThat(stored).doesNotContain("launch code").contains("\"kid\":\"k1\"");

    assertThat(store.events().find("s", "e1").orElseThrow().payload().text()).isEqualTo(secret("event").text());
    assertThat(store.toolCalls().find("s", "c1").orElseThrow().arguments()).isEqualTo(secret("arguments"));
    assertThat(store.toolCalls().find("s", "c1").orElseThrow().result()).isEqualTo(secret("result"));
    assertThat(store.summaries().latest("s").orElseThrow().content()).isEqualTo(secret("summary"));
    assertThat(store.modelCalls().list("s").get(0).context()).isEqualTo(secret("context"));
    assertThat(new String(store.checkpoints().get(CheckpointKey.global("g")).orElseThrow().data(),
        StandardCharsets.UTF_8)).isEqualTo(SECRET + " global");
  }

  @Test
  @DisplayName("After a rotation new writes name the new key, old values still open, and replays stay replays")
  void rotation() {
    SessionStore before = encrypting(KeyProvider.of("k1", KEY_1));
    Event first = before.events().append("s", NewEvent.of("message", secret("one")).withId("e1"));
    before.toolCalls().save(ToolCallWrite.of("c1", "s", "tool"));
    before.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result"));
    before.events().append("s2", NewEvent.of("message", secret("archived")));
    SessionArchive archive = before.archives().export("s2").orElseThrow();

    SessionStore after = encrypting(ringWithK2Current());
    after.events().append("s", NewEvent.of("message", secret("two")).withId("e2"));

    List<Event> raw = inner.events().read("s", EventQuery.all()).items();
    assertThat(raw.get(0).payload().text()).contains("\"kid\":\"k1\"");
    assertThat(raw.get(1).payload().text()).contains("\"kid\":\"k2\"");
    assertThat(after.events().read("s", EventQuery.all()).items()).extracting(Event::payload)
        .containsExactly(secret("one"), secret("two"));

    assertThat(after.events().append("s", NewEvent.of("message", secret("one")).withId("e1")))
        .as("a replay of an event sealed under the old key").isEqualTo(first);
    assertThat(after.events().appendAll("s", List.of(NewEvent.of("message", Json.of(
        "{ \"text\" : \"" + SECRET + " one\" }")).withId("e1")))).as("the same document spelled differently")
        .containsExactly(first);
    assertThatThrownBy(() -> after.events().append("s", NewEvent.of("message", secret("other")).withId("e1")))
        .isInstanceOf(DuplicateEventException.class);
    assertThat(after.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result")))
        .isInstanceOf(Resolution.Replayed.class);
    assertThat(after.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("else")))
        .isInstanceOf(Resolution.Stale.class);
    assertThat(after.commit(Step.builder("s").event(NewEvent.of("message", secret("one")).withId("e1"))
        .resolve("c1", ToolCallStatus.COMPLETED, secret("result")).build()).isCommitted())
        .as("a step replaying both after the rotation").isTrue();
    assertThat(inner.events().lastSeq("s")).isEqualTo(2);
    assertThat(after.archives().importSession(archive))
        .as("the archive exported before the rotation").isEqualTo(ImportOutcome.UNCHANGED);
    assertThat(after.archives().importSession(archive.withEvents(List.of())))
        .as("another session under its id").isEqualTo(ImportOutcome.CONFLICT);
  }

  @Test
  @DisplayName("A value whose key is missing, or which the key of its id does not open, is an error naming the key")
  void missingOrWrongKey() {
    encrypting(KeyProvider.of("k1", KEY_1)).events().append("s", NewEvent.of("message", secret("one")));

    SessionStore withoutK1 = encrypting(KeyProvider.of("k2", KEY_2));
    assertThatThrownBy(() -> withoutK1.events().read("s", EventQuery.all()))
        .isInstanceOfSatisfying(EncryptionKeyException.class, e -> assertThat(e.keyId()).isEqualTo("k1"))
        .hasMessageContaining("k1").hasMessageContaining("not available");

    SessionStore wrongK1 = encrypting(KeyProvider.of("k1", KEY_2));
    assertThatThrownBy(() -> wrongK1.events().read("s", EventQuery.all()))
        .isInstanceOfSatisfying(EncryptionKeyException.class, e -> assertThat(e.keyId()).isEqualTo("k1"))
        .hasMessageContaining("does not open");
  }

  @Test
  @DisplayName("A sealed value moved to another session or kind does not open")
  void sealedValuesAreBoundToTheirPlace() {
    SessionStore store = encrypting(KeyProvider.of("k1", KEY_1));
    store.events().append("s", NewEvent.of("message", secret("one")).withId("e1"));
    Json sealed = inner.events().find("s", "e1").orElseThrow().payload();
    String forged = sealed.text().replace("\"sid\":\"s\"", "\"sid\":\"t\"");
    inner.events().append("t", NewEvent.of("message", Json.of(forged)).withId("e1"));
    inner.summaries().put("s", NewSummary.of(1, 1, sealed));

    assertThatThrownBy(() -> store.events().find("t", "e1")).isInstanceOf(EncryptionKeyException.class);
    assertThatThrownBy(() -> store.summaries().latest("s")).isInstanceOf(EncryptionKeyException.class);
  }

  @Test
  @DisplayName("The builder requires keys whose current key is available; rings refuse short or repeated keys")
  void builderRules() {
    assertThatThrownBy(() -> EncryptingSessionStore.builder(inner).build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("keys");
    assertThatThrownBy(() -> KeyRing.builder().add("k", new byte[16])).isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("32");
    assertThatThrownBy(() -> KeyRing.builder().add("k", KEY_1).add("k", KEY_2))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("already");
    assertThatThrownBy(() -> KeyRing.builder().add("k", KEY_1).current("j").build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("current");
    assertThat(ringWithK2Current().toString()).isEqualTo("KeyRing[keys=[k1, k2], current=k2]");
  }
}
