package dev.sessionstore.langchain4j;

/** {@link AiServicesEndToEndTest} on the backend of {@link InMemoryChatMemoryStoreTest}. */
class InMemoryAiServicesTest extends AiServicesEndToEndTest {

  @Override
  ChatMemoryStoreContract backend() {
    return new InMemoryChatMemoryStoreTest();
  }
}
