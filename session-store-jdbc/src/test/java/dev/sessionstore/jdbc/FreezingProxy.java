package dev.sessionstore.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to a server that can make every connection open so far half-open: {@link #freeze()} stops forwarding
 * bytes on them in both directions without closing anything, as a failed-over server or a load balancer that
 * dropped an idle connection does. Connections opened later are forwarded normally.
 */
final class FreezingProxy implements AutoCloseable {

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final List<Link> links = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  FreezingProxy(String targetHost, int targetPort) throws IOException {
    this.target = new InetSocketAddress(targetHost, targetPort);
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "freezing-proxy");
    this.acceptor.setDaemon(true);
    this.acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** Makes every connection opened so far half-open: bytes sent either way are no longer delivered. */
  void freeze() {
    links.forEach(link -> link.frozen = true);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(target.getAddress(), target.getPort());
        Link link = new Link(client, upstream);
        links.add(link);
        pump(link, client, upstream);
        pump(link, upstream, client);
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void pump(Link link, Socket from, Socket to) throws IOException {
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[8192];
      try {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          if (!link.frozen) {
            out.write(buffer, 0, read);
            out.flush();
          }
        }
      } catch (IOException e) {
        // the link closed
      } finally {
        if (!link.frozen) {
          link.close();
        }
      }
    }, "freezing-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    links.forEach(Link::close);
  }

  private static final class Link {

    private final Socket client;
    private final Socket upstream;
    private volatile boolean frozen;

    Link(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void close() {
      try {
        client.close();
        upstream.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
