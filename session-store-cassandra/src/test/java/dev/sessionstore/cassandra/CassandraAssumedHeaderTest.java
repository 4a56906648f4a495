package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A store instance's write to a session it wrote last assumes the header its own write left and that the write's ids
 * are new, and makes both conditions of its batch. Counted: such an append is one request. Checked: whatever another
 * instance wrote in between (an append, a metadata change, a deletion) fails the assumption, never the answer: the
 * append lands at the right seq, a stale expected seq is a conflict, a replayed id returns the stored event, and the
 * other instance's write is kept.
 */
class CassandraAssumedHeaderTest {

  private static TracedSession traced;
  private static SessionStore one;
  private static SessionStore other;

  @BeforeAll
  static void open() {
    traced = new TracedSession();
    String namespace = UUID.randomUUID().toString();
    one = traced.store(namespace);
    other = CassandraSessionStore.builder().session(SharedCluster.peerSession()).keyspace("session_store_tests")
        .namespace(namespace).replicationFactor(SharedCluster.replicationFactor()).build();
  }

  @AfterAll
  static void close() {
    for (AutoCloseable closeable : new AutoCloseable[] {one, other, traced}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static NewEvent event(String id) {
    return NewEvent.of("message").withId(id);
  }

  @Test
  @DisplayName("A lone writer's append and 100-event batch are one request each; its first append reads the header")
  void loneWriterAppendsInOneRequest() {
    TracedSession.Cost first = traced.measure(() -> one.events().append("lone", event("a1")));
    TracedSession.Cost next = traced.measure(() -> one.events().append("lone", event("a2")));
    TracedSession.Cost batch = traced.measure(() -> one.events().appendAll("lone",
        IntStream.range(0, 100).mapToObj(i -> event("b" + i)).toList()));
    TracedSession.Cost expected = traced.measure(() -> one.events().append("lone", event("a3"), 102));
    System.out.println("assumed header: first append " + first + "; next " + next + "; 100-event batch " + batch
        + "; append at an expected seq " + expected);
    assertThat(first.requests()).as("the first append: the header read, the listing index, the batch").isEqualTo(3);
    assertThat(next.requests()).as("the next append: the batch alone").isEqualTo(1);
    assertThat(batch.requests()).as("a 100-event batch").isEqualTo(1);
    assertThat(expected.requests()).as("an append at the expected seq").isEqualTo(1);
    assertThat(one.events().read("lone", EventQuery.all()).items()).extracting(Event::seq)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 103).mapToObj(i -> (long) i).toList());
  }

  @Test
  @DisplayName("Another instance's appends in between: the right seqs, a conflict at a stale expected seq, replays"
      + " of either instance's ids return the stored events")
  void appendsOfAnotherInstanceFailTheAssumption() {
    String session = "shared-log";
    assertThat(one.events().append(session, event("x1")).seq()).isEqualTo(1);
    assertThat(other.events().append(session, event("y1")).seq()).isEqualTo(2);
    assertThat(one.events().append(session, event("x2")).seq()).as("after the other instance's append").isEqualTo(3);
    assertThat(other.events().append(session, event("y2")).seq()).isEqualTo(4);
    assertThatThrownBy(() -> one.events().append(session, event("x3"), 3))
        .isInstanceOfSatisfying(SeqConflictException.class, conflict -> assertThat(conflict.actualSeq()).isEqualTo(4));
    assertThat(one.events().append(session, event("y1")).seq()).as("the other instance's id replayed").isEqualTo(2);
    assertThat(one.events().append(session, event("x2")).seq()).as("its own id replayed").isEqualTo(3);
    assertThat(one.events().appendAll(session, List.of(event("x1"), event("x4"))))
        .as("a batch of a stored and a new id").extracting(Event::seq).containsExactly(1L, 5L);
    assertThat(one.events().append(session, event("x5"), 5).seq()).isEqualTo(6);
    assertThat(one.events().read(session, EventQuery.all()).items()).extracting(Event::id)
        .containsExactly("x1", "y1", "x2", "y2", "x4", "x5");
  }

  @Test
  @DisplayName("Another instance's metadata change in between is kept, not overwritten by the assumed header")
  void metadataOfAnotherInstanceIsKept() {
    String session = "shared-metadata";
    one.events().append(session, event("m1"));
    other.sessions().mergeMetadata(session, Map.of("owner", "other"));
    one.events().append(session, event("m2"));
    assertThat(one.sessions().find(session).orElseThrow().metadata()).containsEntry("owner", "other");
    assertThat(one.events().lastSeq(session)).isEqualTo(2);
  }

  @Test
  @DisplayName("A session another instance deleted in between is created again by the next append, from seq 1")
  void deletionByAnotherInstanceFailsTheAssumption() {
    String session = "shared-deleted";
    one.events().append(session, event("d1"));
    one.events().append(session, event("d2"));
    assertThat(other.sessions().delete(session)).isTrue();
    assertThat(one.events().append(session, event("d3")).seq()).isEqualTo(1);
    assertThat(other.events().read(session, EventQuery.all()).items()).extracting(Event::id).containsExactly("d3");
  }
}
