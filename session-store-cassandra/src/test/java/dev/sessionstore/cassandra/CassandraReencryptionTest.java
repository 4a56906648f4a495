package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyRotationScenario;
import dev.sessionstore.crypto.ReencryptOptions;
import dev.sessionstore.crypto.ReencryptResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Key rotation on Cassandra ({@link KeyRotationScenario}, one real node), checked in the tables themselves: after
 * {@link EncryptingSessionStore#reencrypt} no row of the namespace in any table of the keyspace names the old key id
 * (in a sealed document's envelope, or in a sealed blob's header, read as hex), where before the pass every row
 * holding a sealed value did; with the old key gone from the ring everything reads as written.
 */
class CassandraReencryptionTest {

  private static final String KEYSPACE = "session_store_reencryption";

  private final String namespace = UUID.randomUUID().toString();

  @Test
  @DisplayName("After the pass no row names the old key; the new key alone reads every value as written")
  void noRowNamesTheOldKey() {
    KeyRotationScenario scenario = new KeyRotationScenario(this::plain);
    SessionArchive written = scenario.writeUnderOldKey();
    List<String> before = rowsNaming(KeyRotationScenario.OLD);
    System.out.println("rows naming the old key before the pass: " + before.size());
    // session s: 2 events, the tool call (arguments and result), the summary, the checkpoint, the audit row (context
    // and usage); its fork: its copy of event 1; global_checkpoints: g
    assertThat(before).as("rows naming the old key before the pass").hasSize(8);

    ReencryptResult result = scenario.reencrypt();

    System.out.println("re-encryption on Cassandra: " + result);
    assertThat(result.rewritten()).as("values rewritten").isEqualTo(10);
    assertThat(result.changed()).as("values a writer changed meanwhile").isZero();
    assertThat(result.complete()).isTrue();
    assertThat(rowsNaming(KeyRotationScenario.OLD)).as("rows naming the old key after the pass").isEmpty();
    assertThat(rowsNaming(KeyRotationScenario.NEW)).as("rows naming the new key after the pass").hasSize(8);
    scenario.assertReadsUnderNewKeyAlone(written);
  }

  @Test
  @DisplayName("A pass stopped every 3 values and resumed from its cursor by a new store, as after a crash, moves "
      + "every value once")
  void aPassResumedFromItsCursorMovesEveryValueOnce() {
    KeyRotationScenario scenario = new KeyRotationScenario(this::plain);
    SessionArchive written = scenario.writeUnderOldKey();
    List<ReencryptResult> runs = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    do {
      ReencryptOptions options = ReencryptOptions.defaults().withLimit(3);
      ReencryptResult run = scenario.reencrypt(cursor.map(options::withResumeFrom).orElse(options));
      runs.add(run);
      cursor = run.resumeCursor();
    } while (cursor.isPresent() && runs.size() < 20);

    System.out.println("re-encryption on Cassandra in runs of 3: " + runs);
    assertThat(runs).as("runs of at most 3 values for 10 values").hasSize(4);
    assertThat(runs.stream().mapToLong(ReencryptResult::rewritten).sum()).as("values rewritten").isEqualTo(10);
    assertThat(runs.stream().mapToLong(ReencryptResult::alreadyCurrent).sum()).as("values found current").isZero();
    assertThat(rowsNaming(KeyRotationScenario.OLD)).as("rows naming the old key after the runs").isEmpty();
    scenario.assertReadsUnderNewKeyAlone(written);
  }

  private SessionStore plain() {
    return CassandraSessionStore.builder().session(SharedCluster.session()).keyspace(KEYSPACE).namespace(namespace)
        .replicationFactor(SharedCluster.replicationFactor()).modelCallAudit(true).build();
  }

  /**
   * Every row of this test's namespace in every table of the keyspace, as the driver formats it (blobs in hex), that
   * names {@code keyId} in text or in hex, each as {@code table: row}.
   */
  private List<String> rowsNaming(String keyId) {
    CqlSession session = SharedCluster.session();
    String hex = HexFormat.of().formatHex(keyId.getBytes(StandardCharsets.UTF_8));
    List<String> found = new ArrayList<>();
    for (Row table : session.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?",
        KEYSPACE)) {
      String name = table.getString(0);
      for (Row row : session.execute("SELECT * FROM " + KEYSPACE + "." + name)) {
        boolean ours = !row.getColumnDefinitions().contains("ns") || namespace.equals(row.getString("ns"));
        String text = row.getFormattedContents();
        if (ours && (text.contains(keyId) || text.contains(hex))) {
          found.add(name + ": " + text);
        }
      }
    }
    return found;
  }
}
