package dev.sessionstore.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.StoredJson;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Application code calling what {@link ApiAccess} makes public can neither replace the library's rules nor obtain
 * the unchecked constructions: this class stands for such code (it is not in {@code dev.sessionstore.spi}).
 */
class ApiAccessDoorTest {

  @Test
  void aUserCannotInstallItsOwnAccessAndTheChecksStay() {
    assertThatThrownBy(() -> ApiAccess.install(new PermissiveAccess()))
        .isInstanceOf(IllegalCallerException.class).hasMessageContaining(ApiAccessDoorTest.class.getName());

    assertThatThrownBy(() -> Arguments.requireKey("sessionId", ""))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
    assertThatThrownBy(() -> Json.of("{not json")).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void aUserCannotObtainTheAccess() {
    assertThatThrownBy(ApiAccess::get)
        .isInstanceOf(IllegalCallerException.class).hasMessageContaining("dev.sessionstore.spi only");
  }

  @Test
  void reflectionDoesNotOpenTheDoorEither() throws NoSuchMethodException {
    Method get = ApiAccess.class.getMethod("get");

    assertThatThrownBy(() -> get.invoke(null))
        .isInstanceOf(InvocationTargetException.class).cause().isInstanceOf(IllegalCallerException.class);
  }

  @Test
  void theSpiStillGoesThroughTheDoor() {
    assertThat(StoredJson.of("{\"a\":1}").text()).isEqualTo("{\"a\":1}");
    assertThat(Arguments.requireKey("sessionId", "s-1")).isEqualTo("s-1");
  }

  /** What a user would install to switch the checks off: every argument accepted as it is. */
  private static final class PermissiveAccess extends ApiAccess {

    @Override
    public Json storedJson(String text) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String requireKey(String field, String value) {
      return value;
    }

    @Override
    public String optionalKey(String field, String value) {
      return value;
    }

    @Override
    public String requireText(String field, String value, int maxLength) {
      return value;
    }

    @Override
    public <T> T requireNonNull(String field, T value) {
      return value;
    }

    @Override
    public long requireNonNegative(String field, long value) {
      return value;
    }

    @Override
    public long requirePositive(String field, long value) {
      return value;
    }

    @Override
    public Instant requireInstant(String field, Instant value) {
      return value;
    }

    @Override
    public Instant optionalInstant(String field, Instant value) {
      return value;
    }

    @Override
    public <T> List<T> requireElements(String field, List<T> values, int maxSize) {
      return values;
    }

    @Override
    public Map<String, String> requireMetadataPatch(String field, Map<String, String> patch) {
      return patch;
    }

    @Override
    public ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status) {
      return status;
    }

    @Override
    public byte[] requireCheckpointData(String field, byte[] data) {
      return data;
    }

    @Override
    public Map<String, NewEvent> distinctEvents(String sessionId, List<NewEvent> events) {
      Map<String, NewEvent> byId = new LinkedHashMap<>();
      events.forEach(event -> byId.put(event.id(), event));
      return byId;
    }

    @Override
    public int compareIds(String a, String b) {
      return a.compareTo(b);
    }

    @Override
    public List<String> stringValues(Json document) {
      return List.of();
    }

    @Override
    public String indexText(Json document) {
      return "";
    }

    @Override
    public boolean resumesEagerly(Json settings) {
      return false;
    }
  }
}
