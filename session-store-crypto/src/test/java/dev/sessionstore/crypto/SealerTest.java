package dev.sessionstore.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The sealed forms themselves: their text, their determinism, their opening, on one thread and on many. */
class SealerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KIND = Values.EVENT_PAYLOAD;

  private final Sealer sealer = new Sealer(KeyProvider.of("k \"1\" \\ é\u0001", key()), true);

  @Test
  @DisplayName("A sealed document is compact JSON, escaped exactly as Jackson writes the same tree")
  void envelopeIsJacksonsText() throws Exception {
    for (String session : List.of("plain", "quote \" backslash \\ slash /", "tab\tnewline\n\u0001\u001f",
        "é ü 漢字 \uD83D\uDE00", "")) {
      String text = sealer.seal(session.isEmpty() ? null : session, KIND, Json.of("{\"a\":1}")).text();

      assertThat(text).isEqualTo(JSON.writeValueAsString(JSON.readTree(text)));
      assertThat(sealer.open(KIND, Json.of(text)).text()).isEqualTo("{\"a\":1}");
      assertThat(JSON.readTree(text).path(Sealer.MEMBER).path("sid").asText()).isEqualTo(session);
      assertThat(JSON.readTree(text).path(Sealer.MEMBER).path("kid").asText()).isEqualTo("k \"1\" \\ é\u0001");
    }
  }

  @Test
  @DisplayName("A sealed document reformatted (spaces, members reordered) opens alike; with a member beside it, it is"
      + " no sealed document")
  void formsOtherThanWritten() throws Exception {
    Json plain = Json.of("{\"text\":\"hello\"}");
    String written = sealer.seal("s", KIND, plain).text();
    ObjectNode fields = (ObjectNode) JSON.readTree(written).get(Sealer.MEMBER);
    ObjectNode reordered = JSON.createObjectNode();
    reordered.set("data", fields.get("data"));
    reordered.set("sid", fields.get("sid"));
    reordered.set("v", fields.get("v"));
    reordered.set("kid", fields.get("kid"));

    String spaced = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(written));
    String otherOrder = JSON.writeValueAsString(JSON.createObjectNode().set(Sealer.MEMBER, reordered));
    String withAnother = written.substring(0, written.length() - 1) + ",\"other\":1}";

    assertThat(sealer.open(KIND, Json.of(spaced)).text()).isEqualTo(plain.text());
    assertThat(sealer.open(KIND, Json.of(otherOrder)).text()).isEqualTo(plain.text());
    assertThat(sealer.open(KIND, Json.of(withAnother)).text()).isEqualTo(withAnother);
    assertThat(sealer.keyId(Json.of(withAnother))).isEmpty();
    assertThat(sealer.keyId(Json.of(spaced))).contains("k \"1\" \\ é\u0001");
  }

  @Test
  @DisplayName("Sealing one value twice in a row on one thread gives the same text, which opens to the value")
  void sameValueTwiceInARow() {
    Json plain = Json.of("{\"text\":\"the same message, sealed again as a replay seals it\"}");

    Json first = sealer.seal("s", KIND, plain);
    Json second = sealer.seal("s", KIND, plain);
    Json afterAnother = sealer.seal("s", KIND, sealer.open(KIND, sealer.seal("t", KIND, plain)));

    assertThat(second.text()).isEqualTo(first.text());
    assertThat(afterAnother.text()).isEqualTo(first.text());
    assertThat(sealer.open(KIND, second).text()).isEqualTo(plain.text());
  }

  @Test
  @DisplayName("Threads sealing and opening at once, the same values and others, all get the same texts back")
  void concurrentSealing() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        results.add(threads.submit(() -> {
          for (int i = 0; i < 2_000; i++) {
            Json plain = Json.of("{\"i\":" + (i % 50) + ",\"thread\":" + (thread % 2) + "}");
            String session = "s" + (i % 7);
            Json sealed = sealer.seal(session, KIND, plain);
            if (!sealed.text().equals(sealer.seal(session, KIND, plain).text())
                || !sealer.open(KIND, sealed).text().equals(plain.text())) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static byte[] key() {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 7);
    return key;
  }
}
