package dev.teammemory.server.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /q/openapi} describes every route the server serves: the JAX-RS resources are found among
 * the running application's beans, each of their operations must be in the document with a success
 * response, an error response and (where the method reads a body) a request body, each with a
 * schema that resolves; and the document names no operation the server does not serve.
 */
@QuarkusTest
class OpenApiDocumentTest {

  private static final Map<Class<? extends Annotation>, String> METHODS =
      Map.of(
          GET.class, "get",
          PUT.class, "put",
          POST.class, "post",
          DELETE.class, "delete",
          PATCH.class, "patch",
          HEAD.class, "head");

  @Inject BeanManager beans;

  private JsonNode document;

  /** One operation a resource serves. */
  record Route(String method, String path, boolean readsBody, String javaMethod) {
    @Override
    public String toString() {
      return method.toUpperCase(Locale.ROOT) + " " + path + " (" + javaMethod + ")";
    }
  }

  @BeforeEach
  void fetchTheDocument() throws Exception {
    String json =
        given()
            .accept("application/json")
            .queryParam("format", "json")
            .get("/q/openapi")
            .then()
            .statusCode(200)
            .extract()
            .asString();
    document = new ObjectMapper().readTree(json);
  }

  private List<Route> servedRoutes() throws URISyntaxException {
    List<Route> routes = new ArrayList<>();
    for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
      Class<?> type = bean.getBeanClass();
      Path classPath = type.getAnnotation(Path.class);
      // The console's pages are HTML for people (docs/console.md), not API operations.
      if (classPath == null || !fromMainClasses(type) || classPath.value().equals("/console")) {
        continue;
      }
      for (Method method : type.getMethods()) {
        for (Map.Entry<Class<? extends Annotation>, String> http : METHODS.entrySet()) {
          if (method.isAnnotationPresent(http.getKey())) {
            Path methodPath = method.getAnnotation(Path.class);
            String path =
                template(classPath.value() + (methodPath == null ? "" : "/" + methodPath.value()));
            routes.add(
                new Route(
                    http.getValue(),
                    path,
                    readsBody(method),
                    type.getSimpleName() + "." + method.getName()));
          }
        }
      }
    }
    return routes;
  }

  /** Resources the tests add (a failing endpoint) are not the server's. */
  private static boolean fromMainClasses(Class<?> type) throws URISyntaxException {
    return !type.getProtectionDomain()
        .getCodeSource()
        .getLocation()
        .toURI()
        .getPath()
        .contains("test-classes");
  }

  /** A parameter no annotation binds (a path, query or header value, or a context) is the body. */
  private static boolean readsBody(Method method) {
    for (Parameter parameter : method.getParameters()) {
      boolean bound =
          List.of(parameter.getAnnotations()).stream()
              .anyMatch(
                  annotation -> {
                    String name = annotation.annotationType().getName();
                    return name.startsWith("jakarta.ws.rs.")
                        || name.startsWith("org.jboss.resteasy.reactive.");
                  });
      String typeName = parameter.getType().getName();
      boolean context =
          typeName.startsWith("jakarta.ws.rs.core.") || typeName.startsWith("io.vertx.");
      if (!bound && !context) {
        return true;
      }
    }
    return false;
  }

  /** One spelling for a path: single slashes, no trailing one, template names left out. */
  private static String template(String path) {
    String normalised = ("/" + path).replaceAll("/+", "/").replaceAll("\\{[^}]*}", "{}");
    return normalised.length() > 1 && normalised.endsWith("/")
        ? normalised.substring(0, normalised.length() - 1)
        : normalised;
  }

  private JsonNode documentedPath(String servedPath) {
    Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields();
    while (paths.hasNext()) {
      Map.Entry<String, JsonNode> path = paths.next();
      if (template(path.getKey()).equals(servedPath)) {
        return path.getValue();
      }
    }
    return null;
  }

  /** Follows a {@code $ref} inside the document; fails the test when it leads nowhere. */
  private JsonNode resolve(JsonNode node) {
    JsonNode current = node;
    while (current.has("$ref")) {
      String reference = current.get("$ref").asText();
      assertThat(reference).startsWith("#/");
      JsonNode target = document.at(reference.substring(1));
      assertThat(target.isMissingNode()).as("%s resolves", reference).isFalse();
      current = target;
    }
    return current;
  }

  /** The schema of the first media type of a content map, resolved, or null when there is none. */
  private JsonNode contentSchema(JsonNode withContent) {
    JsonNode content = resolve(withContent).path("content");
    if (!content.isObject() || content.isEmpty()) {
      return null;
    }
    JsonNode schema = content.elements().next().path("schema");
    return schema.isMissingNode() ? null : resolve(schema);
  }

  @Test
  void theServerServesTheRoutesThisTestLooksFor() throws Exception {
    assertThat(servedRoutes())
        .extracting(route -> route.method() + " " + route.path())
        .contains(
            "get /api/claude_code/team_memory",
            "put /api/claude_code/team_memory",
            "delete /api/claude_code/team_memory/history",
            "get /api/claude_code/team_memory/changes",
            "get /api/auth/config",
            "post /v1/memory_stores",
            "post /v1/memory_stores/{}/memories/{}",
            "get /v1/memory_stores/{}/memory_versions");
  }

  @Test
  void everyServedRouteIsDocumentedWithItsSchemas() throws Exception {
    for (Route route : servedRoutes()) {
      JsonNode path = documentedPath(route.path());
      assertThat(path).as("%s is in /q/openapi", route).isNotNull();
      JsonNode operation = path.path(route.method());
      assertThat(operation.isObject()).as("%s is in /q/openapi", route).isTrue();

      JsonNode responses = operation.path("responses");
      List<String> successes = new ArrayList<>();
      List<String> errors = new ArrayList<>();
      responses
          .fields()
          .forEachRemaining(
              response -> {
                String status = response.getKey();
                if (status.startsWith("2")) {
                  assertThat(contentSchema(response.getValue()))
                      .as("%s answers %s with a schema", route, status)
                      .isNotNull();
                  successes.add(status);
                } else if (status.startsWith("4") || status.startsWith("5")) {
                  JsonNode schema = contentSchema(response.getValue());
                  assertThat(schema)
                      .as("%s answers %s with an error schema", route, status)
                      .isNotNull();
                  errors.add(status);
                }
              });
      assertThat(successes).as("%s has a success response", route).isNotEmpty();
      assertThat(errors).as("%s has error responses", route).isNotEmpty();

      if (route.readsBody()) {
        assertThat(operation.has("requestBody")).as("%s documents its body", route).isTrue();
        assertThat(contentSchema(operation.get("requestBody")))
            .as("%s documents its body's schema", route)
            .isNotNull();
      }
    }
  }

  @Test
  void everyDocumentedOperationIsServed() throws Exception {
    List<String> served =
        servedRoutes().stream().map(route -> route.method() + " " + route.path()).toList();
    List<String> documented = new ArrayList<>();
    document
        .path("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fieldNames()
                    .forEachRemaining(
                        method -> {
                          if (METHODS.containsValue(method)) {
                            documented.add(method + " " + template(path.getKey()));
                          }
                        }));

    assertThat(served).containsAll(documented);
  }

  @Test
  void errorSchemasAreTheTwoEnvelopes() {
    JsonNode schemas = document.path("components").path("schemas");
    assertThat(schemas.path("Error").path("properties").path("error").path("required"))
        .extracting(JsonNode::asText)
        .containsExactly("message", "details");
    assertThat(schemas.path("StoreError").path("required"))
        .extracting(JsonNode::asText)
        .containsExactly("type", "error");
    JsonNode badPut =
        resolve(
            document
                .path("paths")
                .path("/api/claude_code/team_memory")
                .path("put")
                .path("responses")
                .path("400"));
    assertThat(resolve(badPut.path("content").path("application/json").path("schema")))
        .isEqualTo(schemas.path("Error"));
  }

  @Test
  void everyReferenceInTheDocumentResolves() {
    List<String> references = new ArrayList<>();
    collectReferences(document, references);
    assertThat(references).isNotEmpty();
    for (String reference : references) {
      assertThat(document.at(reference.substring(1)).isMissingNode())
          .as("%s resolves", reference)
          .isFalse();
    }
  }

  private static void collectReferences(JsonNode node, List<String> references) {
    if (node.has("$ref")) {
      references.add(node.get("$ref").asText());
    }
    node.elements().forEachRemaining(child -> collectReferences(child, references));
  }
}
