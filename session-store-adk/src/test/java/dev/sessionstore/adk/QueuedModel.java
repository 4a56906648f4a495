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
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A model without a network that answers each request with the next reply it was given, in order, and records the
 * requests (as ADK's own {@code TestLlm} does), so a test can read what reached the model.
 */
final class QueuedModel extends BaseLlm {

  final List<LlmRequest> requests = new CopyOnWriteArrayList<>();
  private final Queue<Content> replies = new ConcurrentLinkedQueue<>();

  QueuedModel() {
    super("queued-model");
  }

  /** Queues a text reply. */
  QueuedModel says(String text) {
    replies.add(Content.builder().role("model").parts(Part.fromText(text)).build());
    return this;
  }

  /** Queues a reply calling the function {@code name} with {@code args}. */
  QueuedModel calls(String name, Map<String, Object> args) {
    replies.add(Content.builder().role("model")
        .parts(Part.builder().functionCall(FunctionCall.builder().name(name).args(args).build()).build()).build());
    return this;
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    requests.add(request);
    Content reply = replies.poll();
    if (reply == null) {
      throw new IllegalStateException("the queued model has no reply left for request " + requests.size());
    }
    return Flowable.just(LlmResponse.builder().content(reply).build());
  }

  @Override
  public BaseLlmConnection connect(LlmRequest request) {
    throw new UnsupportedOperationException("the queued model does not stream");
  }

  /** The last request's function response of {@code name}, as text. */
  String lastFunctionResponse(String name) {
    List<Content> contents = requests.get(requests.size() - 1).contents();
    return contents.get(contents.size() - 1).parts().orElseThrow().stream()
        .flatMap(part -> part.functionResponse().stream())
        .filter(response -> response.name().orElse("").equals(name))
        .map(response -> String.valueOf(response.response().orElseThrow()))
        .findFirst().orElseThrow(() -> new AssertionError("no function response of " + name));
  }
}
