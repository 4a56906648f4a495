package dev.sessionstore;

import dev.sessionstore.internal.ApiAccess;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The API package's side of {@link ApiAccess}: hands the adapter SPI the package-private rules ({@link Checks}), the
 * construction of a stored {@link Json} and the resume rule of {@link Session}, without a public member a user
 * could call and without the API package referring to the SPI package. Installed once, when this class is
 * initialized ({@link ApiAccess#get} initializes it).
 */
final class SpiBridge extends ApiAccess {

  static {
    ApiAccess.install(new SpiBridge());
  }

  private SpiBridge() {
  }

  @Override
  public List<String> stringValues(Json document) {
    return JsonRules.stringValues(document.text());
  }

  @Override
  public String indexText(Json document) {
    return document.indexText();
  }

  @Override
  public Json storedJson(String text) {
    return Json.ofStored(text);
  }

  @Override
  public String requireKey(String field, String value) {
    return Checks.requireKey(field, value);
  }

  @Override
  public String optionalKey(String field, String value) {
    return Checks.optionalKey(field, value);
  }

  @Override
  public String requireText(String field, String value, int maxLength) {
    return Checks.requireText(field, value, maxLength);
  }

  @Override
  public <T> T requireNonNull(String field, T value) {
    return Checks.requireNonNull(field, value);
  }

  @Override
  public long requireNonNegative(String field, long value) {
    return Checks.requireNonNegative(field, value);
  }

  @Override
  public long requirePositive(String field, long value) {
    return Checks.requirePositive(field, value);
  }

  @Override
  public Instant requireInstant(String field, Instant value) {
    return Checks.requireInstant(field, value);
  }

  @Override
  public Instant optionalInstant(String field, Instant value) {
    return Checks.optionalInstant(field, value);
  }

  @Override
  public <T> List<T> requireElements(String field, List<T> values, int maxSize) {
    return Checks.requireElements(field, values, maxSize);
  }

  @Override
  public Map<String, String> requireMetadataPatch(String field, Map<String, String> patch) {
    return Checks.requireMetadataPatch(field, patch);
  }

  @Override
  public ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status) {
    return Checks.requireResolvedStatus(field, status);
  }

  @Override
  public byte[] requireCheckpointData(String field, byte[] data) {
    return Checks.requireCheckpointData(field, data);
  }

  @Override
  public Map<String, NewEvent> distinctEvents(String sessionId, List<NewEvent> events) {
    return Checks.distinctEvents(sessionId, events);
  }

  @Override
  public int compareIds(String a, String b) {
    return Checks.compareIds(a, b);
  }

  @Override
  public boolean resumesEagerly(Json settings) {
    return Session.resumesEagerly(settings);
  }
}
