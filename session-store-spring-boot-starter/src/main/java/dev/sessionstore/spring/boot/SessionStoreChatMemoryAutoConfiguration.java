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
 * application defines wins. Active when Spring AI and the bridge of its line are on the class path: the bridge is the
 * application's own dependency ({@code dev.sessionstore:session-store-spring-ai} for Spring AI 1.x,
 * {@code session-store-spring-ai-2} for 2.x); building the repository fails at startup, naming which to keep, when
 * both or the other line's are there. With Spring AI and no bridge, {@link SessionStoreAutoConfiguration} logs a
 * warning naming the bridge to add, as Spring AI's own in-memory repository then keeps the conversations.
 */
@AutoConfiguration(after = SessionStoreAutoConfiguration.class,
    beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass({ChatMemoryRepository.class, SessionStoreChatMemoryRepository.class})
public class SessionStoreChatMemoryAutoConfiguration {

  /** The class of the bridge, which the application adds beside Spring AI. */
  static final String BRIDGE = "dev.sessionstore.springai.SessionStoreChatMemoryRepository";
  /** Spring AI's chat memory repository interface, present with Spring AI. */
  static final String SPRING_AI = "org.springframework.ai.chat.memory.ChatMemoryRepository";

  /** The repository, writing conversations marked with {@code session-store.chat-memory.owner}. */
  @Bean
  @ConditionalOnMissingBean(ChatMemoryRepository.class)
  public SessionStoreChatMemoryRepository sessionStoreChatMemoryRepository(SessionStore store,
                                                                           SessionStoreProperties properties) {
    return SessionStoreChatMemoryRepository.builder(store).owner(properties.chatMemory().owner()).build();
  }
}
