package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import org.junit.jupiter.api.Test;

class StoredJsonTest {

  @Test
  void aStoredDocumentKeepsItsTextAndEqualsTheDocumentItWasWrittenFrom() {
    Json written = Json.of("{ \"b\" : 1.50, \"a\" : [true, null] }");

    Json read = StoredJson.of(written.text());

    assertThat(read.text()).isEqualTo(written.text());
    assertThat(read).isEqualTo(written).hasSameHashCodeAs(written);
    assertThat(read.tree().get("b").decimalValue()).isEqualByComparingTo("1.50");
  }

  @Test
  void textNoDocumentCouldHaveIsRefused() {
    assertThatThrownBy(() -> StoredJson.of(null))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("json"));
    assertThatThrownBy(() -> StoredJson.of(" ".repeat(Limits.MAX_JSON_LENGTH + 1)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("json"));
  }
}
