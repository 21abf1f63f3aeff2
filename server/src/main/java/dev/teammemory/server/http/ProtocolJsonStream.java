package dev.teammemory.server.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A protocol body written as it is read, for an answer too large to hold whole (the full GET of a
 * repository): the mapping and the string path of {@link JsonBodyWriter}, so that the bytes are
 * those the whole record would have been written as.
 */
public final class ProtocolJsonStream {

  private ProtocolJsonStream() {}

  /**
   * A generator of UTF-8 JSON into {@code out}, which writes through to it every few KB; closing
   * the generator flushes it and leaves {@code out} open.
   */
  public static JsonGenerator open(OutputStream out) throws IOException {
    JsonGenerator generator = JsonBodyWriter.PROTOCOL.createGenerator(out, JsonEncoding.UTF8);
    generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    return generator;
  }

  /**
   * Writes a string value as every string of a protocol body is written: from its UTF-8 bytes
   * (docs/benchmarks.md), which Jackson escapes where JSON needs it.
   */
  public static void writeString(JsonGenerator generator, String value) throws IOException {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    generator.writeUTF8String(utf8, 0, utf8.length);
  }
}
