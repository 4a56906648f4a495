package dev.sessionstore.spi;

import dev.sessionstore.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** What an expired tool call's result says, identical in every adapter. */
public final class Expiry {

  /** The {@code error} member of an expired call's result. */
  public static final String DEADLINE_EXCEEDED = "deadline_exceeded";

  private Expiry() {
  }

  /** The result of a call expired at {@code deadline}: {@code {"error":"deadline_exceeded","deadline":"..."}}. */
  public static Json result(Instant deadline) {
    Map<String, String> result = new LinkedHashMap<>();
    result.put("error", DEADLINE_EXCEEDED);
    result.put("deadline", deadline.toString());
    return Json.from(result);
  }
}
