package dev.teammemory.server.errors;

import dev.teammemory.protocol.ErrorCodes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code tmem_rejections_total} by {@code error_code}: every refusal either API answers. Each known
 * code of both envelopes is exported at 0 from the start, so that a fresh server's dashboard panels
 * and alert rules read 0 rather than "No data".
 */
@Startup
@ApplicationScoped
public class Rejections {

  private final MeterRegistry registry;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  @Inject
  Rejections(MeterRegistry registry) {
    this.registry = registry;
    knownCodes().forEach(this::counter);
  }

  /** Counts one refusal with this error code. */
  public void count(String errorCode) {
    counter(errorCode).increment();
  }

  private Counter counter(String errorCode) {
    return counters.computeIfAbsent(
        errorCode,
        code ->
            Counter.builder("tmem.rejections")
                .description("Requests refused, by error code")
                .tag("error_code", code)
                .register(registry));
  }

  /** The error codes of {@code team_memory} and the types of the Memory Stores API's errors. */
  static TreeSet<String> knownCodes() {
    TreeSet<String> codes = new TreeSet<>();
    for (Class<?> holder : new Class<?>[] {ErrorCodes.class, StoreApiException.class}) {
      for (Field field : holder.getFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
          try {
            codes.add((String) field.get(null));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("a public constant is not readable", e);
          }
        }
      }
    }
    return codes;
  }
}
