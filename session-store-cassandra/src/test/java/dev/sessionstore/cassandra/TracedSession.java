package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A driver session on the shared cluster whose statements are traced (query tracing) while a call is
 * {@linkplain #measure measured}: the call's requests, result pages (every page the driver fetched, from each result's
 * execution infos), and the rows and tombstone cells read (the traces' "Read N live rows and M tombstone cells"
 * events, the Paxos reads of a conditional batch included) are summed: for each page, those of the replica that read
 * the most, so that the count is one replica's work whether a quorum is one node or two, and a digest read or a read
 * repair on another replica does not count twice.
 */
final class TracedSession implements AutoCloseable {

  private static final Pattern READ = Pattern.compile("Read (\\d+) live rows(?: and (\\d+) tombstone cells)?");

  private final CqlSession driver;
  private final CqlSession traced;
  /** The results of the call being measured; {@code null} when not measuring. */
  private volatile List<ResultSet> recording;

  TracedSession() {
    driver = CqlSession.builder().addContactPoints(SharedCluster.cluster().contactPoints())
        .withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withInt(DefaultDriverOption.REQUEST_TRACE_ATTEMPTS, 100)
            .withDuration(DefaultDriverOption.REQUEST_TRACE_INTERVAL, Duration.ofMillis(20))
            .build())
        .build();
    traced = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(),
        new Class<?>[] {CqlSession.class}, (proxy, method, args) -> invoke(method, args));
  }

  /** The session to build stores on: statements run while measuring are traced. */
  CqlSession session() {
    return traced;
  }

  /**
   * A store on this session in {@code namespace} of the tests' keyspace, its deadline sweeper idle: the sweeper's
   * statements would be counted with the measured call's, and none runs within a test.
   */
  SessionStore store(String namespace) {
    return CassandraSessionStore.builder().session(traced).keyspace("session_store_tests").namespace(namespace)
        .replicationFactor(SharedCluster.replicationFactor()).sweepInterval(Duration.ofDays(1)).build();
  }

  private Object invoke(Method method, Object[] args) throws Throwable {
    List<ResultSet> results = recording;
    boolean measured = results != null && method.getName().equals("execute") && args != null && args.length == 1
        && args[0] instanceof Statement<?>;
    if (measured) {
      args = new Object[] {((Statement<?>) args[0]).setTracing(true)};
    }
    Object result;
    try {
      result = method.invoke(driver, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (measured) {
      results.add((ResultSet) result);
    }
    return result;
  }

  /** The requests, pages, replica rows and tombstone cells of {@code call}. */
  Cost measure(Runnable call) {
    List<ResultSet> results = new ArrayList<>();
    recording = results;
    try {
      call.run();
    } finally {
      recording = null;
    }
    long pages = 0;
    long rows = 0;
    long tombstones = 0;
    for (ResultSet result : results) {
      for (ExecutionInfo page : result.getExecutionInfos()) {
        pages++;
        Map<InetAddress, long[]> byReplica = new HashMap<>();
        for (TraceEvent event : page.getQueryTrace().getEvents()) {
          Matcher matcher = READ.matcher(String.valueOf(event.getActivity()));
          if (matcher.find()) {
            long[] read = byReplica.computeIfAbsent(event.getSource(), source -> new long[2]);
            read[0] += Long.parseLong(matcher.group(1));
            read[1] += matcher.group(2) == null ? 0 : Long.parseLong(matcher.group(2));
          }
        }
        rows += byReplica.values().stream().mapToLong(read -> read[0]).max().orElse(0);
        tombstones += byReplica.values().stream().mapToLong(read -> read[1]).max().orElse(0);
      }
    }
    return new Cost(results.size(), pages, rows, tombstones);
  }

  @Override
  public void close() {
    driver.close();
  }

  /** What one call cost: statements executed, result pages fetched, rows and tombstone cells the replicas read. */
  record Cost(long requests, long pages, long rows, long tombstones) {
    @Override
    public String toString() {
      return requests + " requests, " + pages + " pages, " + rows + " rows and " + tombstones
          + " tombstone cells read";
    }
  }
}
