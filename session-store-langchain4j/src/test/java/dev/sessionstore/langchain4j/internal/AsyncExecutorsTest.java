package dev.sessionstore.langchain4j.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The default executor: virtual threads on Java 21 and later, the named daemon pool before. */
class AsyncExecutorsTest {

  @Test
  void virtualThreadsWhereTheJvmHasThem() throws Exception {
    boolean hasVirtualThreads = Runtime.version().feature() >= 21;
    Thread thread = CompletableFuture.supplyAsync(Thread::currentThread, AsyncExecutors.shared())
        .get(30, TimeUnit.SECONDS);

    assertThat(AsyncExecutors.virtualThreads()).isEqualTo(hasVirtualThreads);
    assertThat(AsyncExecutors.shared()).isSameAs(AsyncExecutors.shared());
    assertThat(thread).isNotSameAs(Thread.currentThread());
    assertThat(thread.isDaemon()).isTrue();
    if (hasVirtualThreads) {
      assertThat(thread.getName()).isEmpty();
      assertThat(thread.toString()).startsWith("VirtualThread");
    } else {
      assertThat(thread.getName()).startsWith(AsyncExecutors.THREAD_PREFIX);
    }
  }
}
