package dev.sessionstore.springai.alibaba;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.checkpoint.Checkpoint;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through an encrypting store, a checkpoint's state is stored encrypted: the file holds no state in clear. */
class EncryptionAtRestTest {

  @TempDir
  Path folder;

  @Test
  @DisplayName("the plain store over the file of an encrypting one does not hold the checkpoint's state")
  void stateIsEncryptedAtRest() throws Exception {
    Checkpoint checkpoint = Checkpoint.builder().state(Map.of("plan", List.of("the secret plan"))).nodeId("agent")
        .nextNodeId("tools").build();
    RunnableConfig config = RunnableConfig.builder().threadId("sealed").build();
    String stateBase64 = Base64.getEncoder()
        .encodeToString(StateGraph.DEFAULT_JACKSON_SERIALIZER.dataToBytes(checkpoint.getState()));
    try (SessionStore encrypting = EncryptingSessionStore.builder(plain())
        .keys(KeyProvider.of("graph-key", new byte[32])).build();
         SessionStore plain = plain()) {
      SessionStoreCheckpointSaver.builder(encrypting).build().put(config, checkpoint);

      String stored = plain.events().read("sealed", EventQuery.all()).items().get(0).payload().toString();

      assertThat(stored).doesNotContain(stateBase64);
      assertThat(SessionStoreCheckpointSaver.builder(encrypting).build().get(config)).map(Checkpoint::getState)
          .contains(checkpoint.getState());
      // the same checkpoint through the plain store is there in clear: the check above can fail
      SessionStoreCheckpointSaver.builder(plain).build().put(RunnableConfig.builder().threadId("clear").build(),
          checkpoint);
      assertThat(plain.events().read("clear", EventQuery.all()).items().get(0).payload().toString())
          .contains(stateBase64);
    }
  }

  private SessionStore plain() {
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + folder.resolve("graph.db")).build();
  }
}
