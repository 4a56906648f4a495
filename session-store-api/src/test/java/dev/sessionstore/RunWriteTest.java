package dev.sessionstore;

import dev.sessionstore.spi.Upserts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunWriteTest {

  private static final Instant CREATED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant LATER = CREATED.plusSeconds(5);

  @Test
  void newRunTakesTheDefaults() {
    Run run = Upserts.run(RunWrite.of("r", "s"), null, CREATED);

    assertThat(run.status()).isEqualTo(RunStatus.PENDING);
    assertThat(run.usage()).isEqualTo(Json.emptyObject());
    assertThat(run.error()).isNull();
    assertThat(run.createdAt()).isEqualTo(CREATED);
    assertThat(run.updatedAt()).isEqualTo(CREATED);
  }

  @Test
  void omittedFieldsKeepTheirStoredValues() {
    Run stored = Upserts.run(RunWrite.of("r", "s").withStatus(RunStatus.FAILED).withUsage(Json.of("{\"tokens\":3}"))
        .withError(Json.of("{\"message\":\"boom\"}")), null, CREATED);

    Run updated = Upserts.run(RunWrite.of("r", "s"), stored, LATER);

    assertThat(updated).isEqualTo(new Run("r", "s", RunStatus.FAILED, stored.usage(), stored.error(), CREATED, LATER));
  }

  @Test
  void writtenFieldsReplaceStoredValues() {
    Run stored = Upserts.run(RunWrite.of("r", "s").withStatus(RunStatus.RUNNING), null, CREATED);

    Run updated = Upserts.run(RunWrite.of("r", "s").withStatus(RunStatus.COMPLETED).withUsage(Json.of("{\"tokens\":9}"))
        , stored, LATER);

    assertThat(updated.status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(updated.usage()).isEqualTo(Json.of("{\"tokens\":9}"));
    assertThat(updated.createdAt()).isEqualTo(CREATED);
  }
}
