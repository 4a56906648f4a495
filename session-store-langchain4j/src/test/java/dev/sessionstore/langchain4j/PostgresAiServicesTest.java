package dev.sessionstore.langchain4j;

/** {@link AiServicesEndToEndTest} on the backend of {@link PostgresChatMemoryStoreTest}. */
class PostgresAiServicesTest extends AiServicesEndToEndTest {

  @Override
  ChatMemoryStoreContract backend() {
    return new PostgresChatMemoryStoreTest();
  }
}
