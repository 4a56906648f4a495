package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionStore;
import dev.sessionstore.springai.SessionStoreChatMemoryRepository;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Spring AI's {@link ChatMemoryRepository} on the application's {@link SessionStore}, registered before Spring AI's
 * own chat memory auto-configuration, so that its {@code MessageWindowChatMemory} uses it. A repository the
 * application defines wins.
 */
@AutoConfiguration(after = SessionStoreAutoConfiguration.class,
    beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass(ChatMemoryRepository.class)
public class SessionStoreChatMemoryAutoConfiguration {

  /** The repository, writing conversations marked with {@code session-store.chat-memory.owner}. */
  @Bean
  @ConditionalOnMissingBean(ChatMemoryRepository.class)
  public SessionStoreChatMemoryRepository sessionStoreChatMemoryRepository(SessionStore store,
                                                                           SessionStoreProperties properties) {
    return SessionStoreChatMemoryRepository.builder(store).owner(properties.chatMemory().owner()).build();
  }
}
