package dev.teammemory.server.logging;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.logging.Level;
import org.jboss.logmanager.ExtFormatter;
import org.jboss.logmanager.ExtLogRecord;

/**
 * One JSON object a line: {@code time} (ISO-8601, UTC), {@code level}, {@code logger}, {@code
 * message}, and what {@link RequestLog} put in the request's context: {@code request_id}, {@code
 * repository}, {@code user}, and on the request's own line {@code status} and {@code duration_ms};
 * a failure's stack trace as {@code exception}. Only those fields, so that a log pipeline can index
 * them and nothing else (the messages themselves never carry a token or a content).
 */
final class JsonLogFormatter extends ExtFormatter {

  private static final JsonFactory JSON = new JsonFactory();

  @Override
  public String format(ExtLogRecord record) {
    StringWriter line = new StringWriter(256);
    try (JsonGenerator json = JSON.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("time", record.getInstant().toString());
      json.writeStringField("level", level(record.getLevel().intValue()));
      json.writeStringField("logger", record.getLoggerName());
      json.writeStringField("message", formatMessage(record));
      Map<String, String> context = record.getMdcCopy();
      writeText(json, RequestLog.REQUEST_ID, context);
      writeText(json, RequestLog.REPOSITORY, context);
      writeText(json, RequestLog.USER, context);
      writeNumber(json, RequestLog.STATUS, context);
      writeNumber(json, RequestLog.DURATION_MS, context);
      if (record.getThrown() != null) {
        StringWriter trace = new StringWriter();
        record.getThrown().printStackTrace(new PrintWriter(trace));
        json.writeStringField("exception", trace.toString());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("a log line could not be written as JSON", e);
    }
    return line.append('\n').toString();
  }

  /** The five names log pipelines know, for JBoss's and java.util.logging's levels alike. */
  private static String level(int value) {
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (value >= Level.INFO.intValue()) {
      return "INFO";
    }
    return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
  }

  private static void writeText(JsonGenerator json, String key, Map<String, String> context)
      throws IOException {
    String value = context.get(key);
    if (value != null) {
      json.writeStringField(key, value);
    }
  }

  /** Numbers that {@link RequestLog} formatted itself, so they are numbers in JSON too. */
  private static void writeNumber(JsonGenerator json, String key, Map<String, String> context)
      throws IOException {
    String value = context.get(key);
    if (value != null) {
      json.writeFieldName(key);
      json.writeNumber(value);
    }
  }
}
