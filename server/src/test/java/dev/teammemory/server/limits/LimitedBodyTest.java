package dev.teammemory.server.limits;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.server.errors.ApiException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class LimitedBodyTest {

  private static RequestBodyLimitFilter.LimitedBody body(String text, String declared, long max) {
    return new RequestBodyLimitFilter.LimitedBody(
        new ByteArrayInputStream(text.getBytes(UTF_8)), declared, max);
  }

  @Test
  void bodyWithinTheLimitReadsWhole() throws IOException {
    assertThat(body("12345", "5", 5).readAllBytes()).hasSize(5);
    assertThat(body("12345", null, 5).readAllBytes()).hasSize(5);
  }

  @Test
  void declaredLengthOverTheLimitFailsBeforeReading() {
    assertThatThrownBy(() -> body("1", "6", 5).read())
        .isInstanceOfSatisfying(
            ApiException.class,
            refused -> {
              assertThat(refused.status()).isEqualTo(413);
              assertThat(refused.errorCode()).isEqualTo("request_too_large");
              assertThat(refused.headers()).containsEntry("Connection", "close");
            });
  }

  @Test
  void streamedBytesOverTheLimitFailWhenTheyArriveWhateverWasDeclared() {
    assertThatThrownBy(() -> body("123456", null, 5).readAllBytes())
        .isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> body("123456", "3", 5).readAllBytes())
        .isInstanceOf(ApiException.class);
  }
}
