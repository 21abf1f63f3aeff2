package dev.teammemory.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.store.StoreAnswers;
import jakarta.inject.Inject;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * Writes the answers of both APIs: the wire records of {@code shared-protocol} with the protocol's
 * own JSON mapping, the one clients read them with (the bodies are contract: an empty {@code
 * deletedKeys} is left out, the too-many-entries error has no message), and the Memory Stores API's
 * {@link StoreAnswers.Answer} records with the HTTP layer's mapping (Quarkus's, which writes {@code
 * null} members out, as the SDKs expect).
 *
 * <p>A body goes to the network as one array with its length: streamed through the response's
 * output stream, a full GET costs a pooled buffer per 8 KB, and on the benchmark those buffers took
 * more CPU than writing the JSON; and a small store-API answer spent more in Quarkus's streaming
 * writer than in its own serialisation (docs/benchmarks.md).
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
final class JsonBodyWriter implements ServerMessageBodyWriter<Object> {

  private static final String PROTOCOL_PACKAGE = "dev.teammemory.protocol";

  /**
   * The protocol's mapping, with strings written from their UTF-8 bytes: the JDK encodes a string
   * in bulk, where Jackson's own string path looks at one character at a time, which was most of
   * the CPU of a full GET. The output is the same JSON, byte for byte, except that a character
   * outside the Basic Multilingual Plane is written as its UTF-8 bytes rather than as an escaped
   * surrogate pair; both read back as the same string.
   */
  static final ObjectMapper PROTOCOL = withUtf8Strings(ProtocolJson.mapper());

  /** The Memory Stores API's mapping: the HTTP layer's, with the same string path. */
  private final ObjectMapper memoryStores;

  @Inject
  JsonBodyWriter(ObjectMapper httpMapper) {
    this.memoryStores = withUtf8Strings(httpMapper);
  }

  @Override
  public boolean isWriteable(
      Class<?> type, Type genericType, ResteasyReactiveResourceInfo target, MediaType mediaType) {
    return mapperFor(type) != null;
  }

  @Override
  public boolean isWriteable(
      Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
    return mapperFor(type) != null;
  }

  @Override
  public void writeResponse(Object body, Type genericType, ServerRequestContext context)
      throws IOException {
    context.serverResponse().end(bytes(body));
  }

  @Override
  public void writeTo(
      Object body,
      Class<?> type,
      Type genericType,
      Annotation[] annotations,
      MediaType mediaType,
      MultivaluedMap<String, Object> headers,
      OutputStream out)
      throws IOException {
    out.write(bytes(body));
  }

  /** The bytes a body is written as. */
  byte[] bytes(Object body) throws IOException {
    return mapperFor(body.getClass()).writeValueAsBytes(body);
  }

  /** The bytes a protocol record is written as. */
  static byte[] protocolBytes(Object body) throws IOException {
    return PROTOCOL.writeValueAsBytes(body);
  }

  /** The mapping for a body of this type; null for a type neither API answers with. */
  private ObjectMapper mapperFor(Class<?> type) {
    if (type.getPackageName().equals(PROTOCOL_PACKAGE)) {
      return PROTOCOL;
    }
    return StoreAnswers.Answer.class.isAssignableFrom(type) ? memoryStores : null;
  }

  private static ObjectMapper withUtf8Strings(ObjectMapper mapper) {
    return mapper
        .copy()
        .registerModule(new SimpleModule().addSerializer(String.class, new Utf8Strings()));
  }

  /** Writes a string value as its UTF-8 bytes, which Jackson escapes where JSON needs it. */
  private static final class Utf8Strings extends StdSerializer<String> {

    Utf8Strings() {
      super(String.class);
    }

    @Override
    public void serialize(String value, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      ProtocolJsonStream.writeString(generator, value);
    }
  }
}
