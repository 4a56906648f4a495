package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The metadata {@code spring-boot-configuration-processor} generates into the jar (what IDEs complete): every
 * {@code session-store.*} property, with its type and the description its javadoc gives it.
 */
class ConfigurationMetadataTest {

  @Test
  @DisplayName("every property is in the generated metadata with its type and a description")
  void everyPropertyDescribed() throws IOException {
    JsonNode metadata;
    try (InputStream in = getClass().getClassLoader()
        .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("META-INF/spring-configuration-metadata.json on the class path").isNotNull();
      metadata = new ObjectMapper().readTree(in);
    }
    Map<String, JsonNode> properties = new HashMap<>();
    metadata.get("properties").forEach(property -> properties.put(property.get("name").asText(), property));

    Map<String, String> expected = Map.ofEntries(
        Map.entry("session-store.type", "dev.sessionstore.spring.boot.SessionStoreProperties$Type"),
        Map.entry("session-store.schema", "java.lang.String"),
        Map.entry("session-store.table-prefix", "java.lang.String"),
        Map.entry("session-store.notifications", "java.lang.Boolean"),
        Map.entry("session-store.retry-timeout", "java.time.Duration"),
        Map.entry("session-store.sqlite.path", "java.lang.String"),
        Map.entry("session-store.chat-memory.owner", "java.lang.String"),
        Map.entry("session-store.retention.idle-for", "java.time.Duration"),
        Map.entry("session-store.retention.statuses", "java.util.Set<java.lang.String>"),
        Map.entry("session-store.retention.tenant", "java.lang.String"),
        Map.entry("session-store.retention.keep-events", "java.lang.Integer"),
        Map.entry("session-store.retention.model-calls-older-than", "java.time.Duration"),
        Map.entry("session-store.retention.interval", "java.time.Duration"));
    assertThat(properties).containsOnlyKeys(expected.keySet());
    expected.forEach((name, type) -> {
      assertThat(properties.get(name).get("type").asText()).as(name).isEqualTo(type);
      assertThat(properties.get(name).path("description").asText()).as(name).isNotBlank();
    });
    assertThat(properties.get("session-store.retention.interval").get("defaultValue").asText()).isEqualTo("10m");
  }
}
