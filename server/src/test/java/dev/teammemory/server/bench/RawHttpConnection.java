package dev.teammemory.server.bench;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;
import java.util.Map;

/**
 * One keep-alive HTTP/1.1 connection with the least client work possible: the benchmark measures
 * the server, and a general-purpose client (the JDK's, with its thread hops and buffer copies)
 * would take a large share of the two cores the server and PostgreSQL run on.
 */
final class RawHttpConnection implements AutoCloseable {

  /** A response: its status and, when asked for, its body. */
  record Reply(int status, byte[] body) {}

  private final String host;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] skipBuffer = new byte[64 * 1024];

  RawHttpConnection(String host, int port) throws IOException {
    this.host = host + ":" + port;
    this.socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port));
    this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
  }

  Reply send(
      String method, String target, Map<String, String> headers, byte[] body, boolean keepBody)
      throws IOException {
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ").append(host);
    headers.forEach((name, value) -> head.append("\r\n").append(name).append(": ").append(value));
    if (body != null) {
      head.append("\r\nContent-Length: ").append(body.length);
    }
    head.append("\r\n\r\n");
    out.write(head.toString().getBytes(ISO_8859_1));
    if (body != null) {
      out.write(body);
    }
    out.flush();
    return read(keepBody);
  }

  private Reply read(boolean keepBody) throws IOException {
    String statusLine = line();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      if (name.equals("content-length")) {
        length = Long.parseLong(value);
      } else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
        chunked = true;
      }
    }
    ByteArrayOutputStream kept = keepBody ? new ByteArrayOutputStream() : null;
    if (chunked) {
      for (long size = Long.parseLong(line().split(";")[0].trim(), 16);
          size > 0;
          size = Long.parseLong(line().split(";")[0].trim(), 16)) {
        body(size, kept);
        line();
      }
      line();
    } else if (length > 0) {
      body(length, kept);
    }
    return new Reply(status, kept == null ? new byte[0] : kept.toByteArray());
  }

  private void body(long length, ByteArrayOutputStream kept) throws IOException {
    long remaining = length;
    while (remaining > 0) {
      int read = in.read(skipBuffer, 0, (int) Math.min(skipBuffer.length, remaining));
      if (read < 0) {
        throw new EOFException("the server closed the connection mid-body");
      }
      if (kept != null) {
        kept.write(skipBuffer, 0, read);
      }
      remaining -= read;
    }
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder(64);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("the server closed the connection");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
