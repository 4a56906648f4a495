package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionStore;
import dev.sessionstore.springai.session.SessionStoreSessionRepository;
import org.springframework.ai.session.SessionRepository;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * spring-ai-session's {@link SessionRepository} on the application's {@link SessionStore}, registered before
 * spring-ai-session's own auto-configurations (its JDBC repository, and its {@code SessionService}, which then runs on
 * this repository), so that {@code SessionMemoryAdvisor} keeps sessions in the configured store. A repository the
 * application defines wins. Active when the bridge {@code dev.sessionstore:session-store-spring-ai-session} (which
 * brings spring-ai-session) is on the class path; the store is the one {@code session-store.*} configures. To keep
 * spring-ai-session's own repository instead, exclude this class ({@code spring.autoconfigure.exclude}).
 */
@AutoConfiguration(after = SessionStoreAutoConfiguration.class, beforeName = {
    "org.springaicommunity.session.jdbc.autoconfigure.JdbcSessionRepositoryAutoConfiguration",
    "org.springaicommunity.session.autoconfigure.SessionServiceAutoConfiguration"})
@ConditionalOnClass({SessionRepository.class, SessionStoreSessionRepository.class})
public class SessionStoreSessionRepositoryAutoConfiguration {

  /** The repository over the store. */
  @Bean
  @ConditionalOnMissingBean(SessionRepository.class)
  public SessionStoreSessionRepository sessionStoreSessionRepository(SessionStore store) {
    return SessionStoreSessionRepository.of(store);
  }
}
