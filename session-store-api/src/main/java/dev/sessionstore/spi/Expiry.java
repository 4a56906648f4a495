package dev.sessionstore.spi;

import dev.sessionstore.Json;
import java.time.Instant;

/** What an expired tool call's result says, identical in every adapter. */
public final class Expiry {

  /** The {@code error} member of an expired call's result. */
  public static final String DEADLINE_EXCEEDED = "deadline_exceeded";

  private Expiry() {
  }

  /** The result of a call expired at {@code deadline}: {@code {"error":"deadline_exceeded","deadline":"..."}}. */
  public static Json result(Instant deadline) {
    return Json.of("{\"error\":\"" + DEADLINE_EXCEEDED + "\",\"deadline\":\"" + deadline + "\"}");
  }
}
