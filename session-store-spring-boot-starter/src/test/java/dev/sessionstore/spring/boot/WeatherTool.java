package dev.sessionstore.spring.boot;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;

/** The test chat application's one tool, {@code weather}, which {@link ScriptedChatModel} calls for Paris. */
final class WeatherTool {

  /** The tool's input. */
  record WeatherRequest(String city) {
  }

  private WeatherTool() {
  }

  /** The tool, answering {@code sunny in <city>}. */
  static ToolCallback callback() {
    return FunctionToolCallback.builder("weather", (WeatherRequest request) -> "sunny in " + request.city())
        .description("The weather in a city").inputType(WeatherRequest.class).build();
  }
}
