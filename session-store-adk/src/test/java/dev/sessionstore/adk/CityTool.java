package dev.sessionstore.adk;

import com.google.adk.tools.Annotations.Schema;
import com.google.adk.tools.ToolContext;
import java.util.Map;

/**
 * The function tool of the end-to-end test: it changes state in every scope through its {@link ToolContext}. Public
 * because ADK invokes it by reflection from its own package.
 */
public final class CityTool {

  private CityTool() {
  }

  /** Remembers {@code city}: the session's last city, the user's and the app's call counts, a temp scratch value. */
  @Schema(name = "remember_city", description = "Remembers a city the user mentioned.")
  public static Map<String, Object> rememberCity(
      @Schema(name = "city", description = "the city") String city,
      @Schema(name = "toolContext") ToolContext toolContext) {
    toolContext.state().put("last_city", city);
    toolContext.state().put("user:cities", count(toolContext.state().get("user:cities")) + 1);
    toolContext.state().put("app:calls", count(toolContext.state().get("app:calls")) + 1);
    toolContext.state().put("temp:scratch", city);
    return Map.of("stored", city);
  }

  private static int count(Object value) {
    return value instanceof Number number ? number.intValue() : 0;
  }
}
