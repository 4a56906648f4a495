package dev.sessionstore.langchain4j;

/** {@link AiServicesEndToEndTest} on the backend of {@link SqliteChatMemoryStoreTest}. */
class SqliteAiServicesTest extends AiServicesEndToEndTest {

  @Override
  ChatMemoryStoreContract backend() {
    return new SqliteChatMemoryStoreTest();
  }
}
