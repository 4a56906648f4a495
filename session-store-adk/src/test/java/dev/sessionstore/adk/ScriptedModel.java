package dev.sessionstore.adk;

import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A model without a network: to a user's message it answers with a call of the tool {@code remember_city} for the
 * message's text; to the tool's response it answers with the text {@code "Noted: <city>"}. It records how many
 * contents each request carried, so a test can see that the history reached it.
 */
final class ScriptedModel extends BaseLlm {

  final List<Integer> contentsSeen = new CopyOnWriteArrayList<>();

  ScriptedModel() {
    super("scripted-model");
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    contentsSeen.add(request.contents().size());
    Content last = request.contents().get(request.contents().size() - 1);
    List<Part> parts = last.parts().orElse(List.of());
    Map<String, Object> answered = parts.stream().flatMap(part -> part.functionResponse().stream())
        .map(response -> response.response().orElse(Map.of())).findFirst().orElse(null);
    Content reply;
    if (answered == null) {
      String city = parts.stream().flatMap(part -> part.text().stream()).findFirst().orElse("nowhere");
      reply = Content.builder().role("model").parts(Part.builder().functionCall(FunctionCall.builder()
          .name("remember_city").args(Map.of("city", city)).build()).build()).build();
    } else {
      reply = Content.builder().role("model").parts(Part.fromText("Noted: " + answered.getOrDefault("stored", answered))).build();
    }
    return Flowable.just(LlmResponse.builder().content(reply).build());
  }

  @Override
  public BaseLlmConnection connect(LlmRequest request) {
    throw new UnsupportedOperationException("the scripted model does not stream");
  }
}
