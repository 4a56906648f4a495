package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * {@code session-store reencrypt} on a SQLite file written under key A, with a key file holding A and B (current): the
 * dry run counts and writes nothing; a limited run prints where to resume; the resumed run finishes; then B alone
 * reads every value. Without keys it is a usage error.
 */
class ReencryptCommandTest {

  @TempDir
  Path folder;
  private String url;

  private static byte[] key(int seed) {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) seed);
    return key;
  }

  private SessionStore open(KeyProvider keys) {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    return EncryptingSessionStore.builder(JdbcSessionStore.builder().dataSource(dataSource).build()).keys(keys)
        .build();
  }

  @BeforeEach
  void writeUnderA() {
    url = "jdbc:sqlite:" + folder.resolve("sealed.db");
    try (SessionStore store = open(KeyProvider.of("A", key(1)))) {
      store.events().appendAll("s", IntStream.rangeClosed(1, 5)
          .mapToObj(i -> NewEvent.of("message", Json.of("{\"n\": " + i + "}")).withId("e" + i)).toList());
      store.checkpoints().put(CheckpointKey.of("s", "turn"), "state".getBytes(StandardCharsets.UTF_8));
    }
  }

  private Path keyFile(String content) throws IOException {
    Path file = folder.resolve("keys.properties");
    Files.writeString(file, content);
    return file;
  }

  @Test
  @DisplayName("--dry-run counts 6 values to move; --limit 4 moves 4 and prints --resume; the resumed run moves 2; "
      + "then key B alone reads everything")
  void dryRunLimitResume() throws IOException {
    Path keys = keyFile("current=B\nkey.A=" + Base64.getEncoder().encodeToString(key(1)) + "\nkey.B="
        + Base64.getEncoder().encodeToString(key(2)) + "\n");

    Cli.Result dry = Cli.run("reencrypt", "--dry-run", "--key-file", keys.toString(), "--jdbc-url", url);
    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out()).containsPattern("would move:\\s+6");
    assertThat(dry.err()).contains("reencrypting (dry run): 6 scanned, 6 to move, 0 current");

    Cli.Result limited = Cli.run("reencrypt", "--limit", "4", "--json", "--key-file", keys.toString(),
        "--jdbc-url", url);
    assertThat(limited.exitCode()).as(limited.err()).isZero();
    assertThat(Json.of(limited.out()).tree().get("rewritten").asLong()).isEqualTo(4);
    String cursor = Json.of(limited.out()).tree().get("resume").asText();

    Cli.Result rest = Cli.run("reencrypt", "--resume", cursor, "--key-file", keys.toString(), "--jdbc-url", url);
    assertThat(rest.exitCode()).as(rest.err()).isZero();
    assertThat(rest.out()).containsPattern("moved:\\s+2").doesNotContain("--resume");

    try (SessionStore alone = open(KeyProvider.of("B", key(2)))) {
      assertThat(alone.events().find("s", "e5").orElseThrow().payload()).isEqualTo(Json.of("{\"n\": 5}"));
      assertThat(alone.checkpoints().get(CheckpointKey.of("s", "turn")).orElseThrow().data())
          .isEqualTo("state".getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  @DisplayName("Without a key file, or with one naming no current key, reencrypt exits 2 and writes nothing")
  void keysAreRequired() throws IOException {
    Cli.Result none = Cli.run("reencrypt", "--jdbc-url", url);
    Cli.Result noCurrent = Cli.run("reencrypt", "--key-file", keyFile("key.A=AAAA\n").toString(), "--jdbc-url", url);

    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(none.err()).contains("--key-file");
    assertThat(noCurrent.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(noCurrent.err()).contains("names no current key");
  }
}
