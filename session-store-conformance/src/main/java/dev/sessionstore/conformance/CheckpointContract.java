package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.SessionStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints and turn state: opaque bytes under a global or session-scoped key, overwritten in place, stored
 * byte-exact and isolated from the caller's arrays, deleted with their session. Requires
 * {@link Capability#CHECKPOINTS}.
 *
 * <p>If this fails, check that the key is the pair (session id or none, name) compared exactly, with "no session" a
 * distinct value rather than an empty string that collides with something; that the bytes go to a binary column
 * (not text, which mangles bytes that are not valid UTF-8 or are 0x00) and are copied on the way in; that an
 * overwrite updates the row in place with the clock's now; and that the size bound is checked before the old value
 * is touched.
 */
public abstract class CheckpointContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected CheckpointContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.CHECKPOINTS);
  }

  private Checkpoints checkpoints() {
    return store.checkpoints();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private byte[] storedData(CheckpointKey key) {
    return present(checkpoints().get(key), "checkpoint %s", key).data();
  }

  @Test
  @DisplayName("put then get returns the bytes under the key, stamped with the clock")
  void putThenGetRoundTrips() {
    CheckpointKey key = CheckpointKey.of(id("session"), "turn-state");

    Checkpoint put = checkpoints().put(key, bytes("state-1"));

    Checkpoint got = present(checkpoints().get(key), "checkpoint %s", key);
    assertThat(got.key()).isEqualTo(key);
    assertThat(got.data()).isEqualTo(bytes("state-1"));
    assertThat(got.updatedAt()).isEqualTo(clock.instant());
    assertThat(got).isEqualTo(put);
  }

  @Test
  @DisplayName("put returns the checkpoint as stored, for a global and a session-scoped key, new and overwritten")
  void putReturnsWhatItStored() {
    for (CheckpointKey key : List.of(CheckpointKey.global(id("runner")), CheckpointKey.of(id("session"), "turn"))) {
      Checkpoint first = checkpoints().put(key, bytes("v1"));
      assertThat(first).as("put of new checkpoint %s", key)
          .isEqualTo(present(checkpoints().get(key), "checkpoint %s", key));
      assertThat(first.data()).as("bytes returned by the first put of %s", key).isEqualTo(bytes("v1"));
      clock.advance(Duration.ofSeconds(5));

      Checkpoint second = checkpoints().put(key, bytes("v2"));
      assertThat(second).as("put overwriting checkpoint %s", key)
          .isEqualTo(present(checkpoints().get(key), "checkpoint %s", key));
      assertThat(second.data()).as("bytes returned by the overwriting put of %s", key).isEqualTo(bytes("v2"));
      assertThat(second.updatedAt()).as("updatedAt returned by the overwriting put of %s", key)
          .isEqualTo(clock.instant());
    }
  }

  @Test
  @DisplayName("get of a key never put is empty")
  void getOfAnUnknownKeyIsEmpty() {
    checkpoints().put(CheckpointKey.global("runner"), bytes("x"));

    assertThat(checkpoints().get(CheckpointKey.global("other"))).isEmpty();
    assertThat(checkpoints().get(CheckpointKey.of("no-such-session", "runner"))).isEmpty();
  }

  @Test
  @DisplayName("A second put overwrites in place: get returns the new bytes and the later updatedAt")
  void putOverwritesInPlace() {
    CheckpointKey key = CheckpointKey.global("runner");
    checkpoints().put(key, bytes("a long first value"));
    clock.advance(Duration.ofMinutes(3));

    checkpoints().put(key, bytes("v2"));

    Checkpoint got = present(checkpoints().get(key), "checkpoint %s", key);
    assertThat(got.data()).as("bytes after an overwrite with a shorter value").isEqualTo(bytes("v2"));
    assertThat(got.updatedAt()).as("updatedAt after an overwrite").isEqualTo(clock.instant());
  }

  @Test
  @DisplayName("A global and a session-scoped checkpoint with the same name are different checkpoints")
  void globalAndSessionKeysDoNotCollide() {
    String session = id("session");
    CheckpointKey global = CheckpointKey.global("turn");
    CheckpointKey scoped = CheckpointKey.of(session, "turn");
    CheckpointKey otherScoped = CheckpointKey.of(id("session"), "turn");

    checkpoints().put(global, bytes("global"));
    checkpoints().put(scoped, bytes("scoped"));
    checkpoints().put(otherScoped, bytes("other"));

    assertThat(storedData(global)).as("global checkpoint turn").isEqualTo(bytes("global"));
    assertThat(storedData(scoped)).as("checkpoint turn of %s", session).isEqualTo(bytes("scoped"));
    assertThat(storedData(otherScoped)).isEqualTo(bytes("other"));

    assertThat(checkpoints().delete(scoped)).isTrue();
    assertThat(storedData(global)).as("global checkpoint after deleting the scoped one").isEqualTo(bytes("global"));
    assertThat(storedData(otherScoped)).isEqualTo(bytes("other"));
  }

  @Test
  @DisplayName("A global checkpoint named like a session id does not collide with that session's checkpoints")
  void aGlobalNameLikeASessionIdDoesNotCollide() {
    checkpoints().put(CheckpointKey.global("s1/turn"), bytes("global"));
    checkpoints().put(CheckpointKey.of("s1", "turn"), bytes("scoped"));
    checkpoints().put(CheckpointKey.of("s1/turn", "x"), bytes("odd"));

    assertThat(storedData(CheckpointKey.global("s1/turn"))).isEqualTo(bytes("global"));
    assertThat(storedData(CheckpointKey.of("s1", "turn"))).isEqualTo(bytes("scoped"));
    assertThat(storedData(CheckpointKey.of("s1/turn", "x"))).isEqualTo(bytes("odd"));
  }

  @Test
  @DisplayName("Checkpoint names are exact: names differing in case or whitespace are different checkpoints")
  void checkpointNamesAreExact() {
    checkpoints().put(CheckpointKey.global("Turn"), bytes("upper"));

    assertThat(checkpoints().get(CheckpointKey.global("turn"))).isEmpty();
    assertThat(checkpoints().get(CheckpointKey.global("Turn "))).isEmpty();
    checkpoints().put(CheckpointKey.global("turn"), bytes("lower"));
    assertThat(storedData(CheckpointKey.global("Turn"))).isEqualTo(bytes("upper"));
  }

  @Test
  @DisplayName("The stored bytes are a copy: changing the array given to put, or the one returned, changes nothing")
  void storedBytesAreACopy() {
    CheckpointKey key = CheckpointKey.global("runner");
    byte[] input = bytes("original");

    checkpoints().put(key, input);
    Arrays.fill(input, (byte) 'X');
    byte[] returned = storedData(key);
    Arrays.fill(returned, (byte) 'Y');

    assertThat(storedData(key)).as("stored bytes after the caller changed its arrays").isEqualTo(bytes("original"));
  }

  @Test
  @DisplayName("An empty byte array is stored as an empty checkpoint, not as a missing one")
  void anEmptyArrayRoundTrips() {
    CheckpointKey key = CheckpointKey.of(id("session"), "empty");

    checkpoints().put(key, new byte[0]);

    assertThat(storedData(key)).isEmpty();
  }

  @Test
  @DisplayName("Every byte value 0x00..0xFF round-trips exactly, including bytes that are not valid UTF-8")
  void everyByteValueRoundTrips() {
    byte[] all = new byte[512];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) (i % 2 == 0 ? i / 2 : 255 - i / 2);
    }
    CheckpointKey key = CheckpointKey.global("binary");

    checkpoints().put(key, all);

    assertThat(storedData(key)).as("all 256 byte values").isEqualTo(all);
  }

  @Test
  @DisplayName("A checkpoint of exactly MAX_CHECKPOINT_BYTES is stored; one byte more is rejected, the old value kept")
  void theSizeBoundIsEnforced() {
    CheckpointKey key = CheckpointKey.global("big");
    byte[] max = new byte[Limits.MAX_CHECKPOINT_BYTES];
    max[0] = 1;
    max[max.length - 1] = 2;
    checkpoints().put(key, max);
    assertThat(storedData(key)).as("a checkpoint of exactly the maximum size").isEqualTo(max);

    assertThatThrownBy(() -> checkpoints().put(key, new byte[Limits.MAX_CHECKPOINT_BYTES + 1]))
        .isInstanceOf(InvalidArgumentException.class);

    assertThat(storedData(key)).as("the checkpoint after a rejected oversize put").isEqualTo(max);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Putting null data is InvalidArgumentException and stores nothing")
  void nullDataIsRejected() {
    CheckpointKey key = CheckpointKey.global("null");

    assertThatThrownBy(() -> checkpoints().put(key, null)).isInstanceOf(InvalidArgumentException.class);

    assertThat(checkpoints().get(key)).isEmpty();
  }

  @Test
  @DisplayName("delete returns true when a checkpoint was there, false afterwards and for a key never put")
  void deleteReportsWhetherOneWasThere() {
    CheckpointKey key = CheckpointKey.of(id("session"), "turn");
    checkpoints().put(key, bytes("x"));

    assertThat(checkpoints().delete(key)).as("first delete").isTrue();
    assertThat(checkpoints().get(key)).as("get after delete").isEmpty();
    assertThat(checkpoints().delete(key)).as("second delete").isFalse();
    assertThat(checkpoints().delete(CheckpointKey.global("never-put"))).as("delete of a key never put").isFalse();
    assertThat(checkpoints().delete(CheckpointKey.of(id("no-such-session"), "turn")))
        .as("delete of a checkpoint of an unknown session").isFalse();
  }

  @Test
  @DisplayName("A checkpoint can be put again after it was deleted")
  void aDeletedKeyCanBePutAgain() {
    CheckpointKey key = CheckpointKey.global("runner");
    checkpoints().put(key, bytes("one"));
    checkpoints().delete(key);
    clock.advance(Duration.ofSeconds(1));

    checkpoints().put(key, bytes("two"));

    assertThat(storedData(key)).isEqualTo(bytes("two"));
    assertThat(present(checkpoints().get(key), "checkpoint").updatedAt()).isEqualTo(clock.instant());
  }

  @Test
  @DisplayName("A session-scoped put under an unknown session creates the session, active")
  void aSessionScopedPutCreatesTheSession() {
    String session = id("session");

    checkpoints().put(CheckpointKey.of(session, "turn"), bytes("x"));

    assertThat(present(store.sessions().find(session), "session %s", session).status())
        .isEqualTo(SessionStatus.ACTIVE);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session deletes its checkpoints, not another session's or a global one of the same name")
  void aSessionsCheckpointsGoWithIt() {
    String session = id("session");
    String other = id("session");
    checkpoints().put(CheckpointKey.of(session, "turn"), bytes("mine"));
    checkpoints().put(CheckpointKey.of(session, "runner"), bytes("mine too"));
    checkpoints().put(CheckpointKey.of(other, "turn"), bytes("theirs"));
    checkpoints().put(CheckpointKey.global("turn"), bytes("global"));

    store.sessions().delete(session);

    assertThat(checkpoints().get(CheckpointKey.of(session, "turn"))).as("checkpoint turn of the deleted session")
        .isEmpty();
    assertThat(checkpoints().get(CheckpointKey.of(session, "runner"))).as("checkpoint runner of the deleted session")
        .isEmpty();
    assertThat(storedData(CheckpointKey.of(other, "turn"))).isEqualTo(bytes("theirs"));
    assertThat(storedData(CheckpointKey.global("turn"))).isEqualTo(bytes("global"));
  }
}
