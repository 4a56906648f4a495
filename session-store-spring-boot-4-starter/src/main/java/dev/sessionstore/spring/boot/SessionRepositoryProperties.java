package dev.sessionstore.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The properties of spring-ai-session's repository on the store ({@code session-store.spring-ai-session.*}).
 *
 * @param enabled whether the store serves spring-ai-session's {@code SessionRepository} when the bridge is on the
 *                class path; {@code false} leaves spring-ai-session's own repositories in charge. Default {@code true}
 */
@ConfigurationProperties(SessionRepositoryProperties.PREFIX)
public record SessionRepositoryProperties(@DefaultValue("true") boolean enabled) {

  /** The prefix of these properties. */
  public static final String PREFIX = "session-store.spring-ai-session";
}
