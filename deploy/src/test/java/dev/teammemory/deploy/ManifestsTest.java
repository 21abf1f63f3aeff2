package dev.teammemory.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Parses every Kubernetes manifest in {@code deploy/kubernetes} and checks the fields a rollout
 * depends on: replicas, probes on the right paths and ports, selectors that select the pods,
 * configuration objects that exist and hold settings the server reads, TLS on the Ingress.
 * (kubeconform would check the schemas, but needs them from the network.)
 */
class ManifestsTest {

  private static final String NAMESPACE = "team-memory";

  private final Path folder = DeployFiles.deploy().resolve("kubernetes");
  private final List<YamlNode> resources = resources();

  private List<YamlNode> resources() {
    List<YamlNode> all = new ArrayList<>();
    for (Path file : DeployFiles.files(folder, ".yaml")) {
      if (!file.getFileName().toString().equals("kustomization.yaml")) {
        all.addAll(DeployFiles.yamlDocuments(file));
      }
    }
    return all;
  }

  private YamlNode only(String kind) {
    List<YamlNode> found =
        resources.stream().filter(resource -> resource.get("kind").text().equals(kind)).toList();
    assertThat(found).as("manifests of kind " + kind).hasSize(1);
    return found.getFirst();
  }

  private YamlNode deployment() {
    return only("Deployment");
  }

  private YamlNode podSpec() {
    return deployment().get("spec", "template", "spec");
  }

  private YamlNode container() {
    List<YamlNode> containers = podSpec().get("containers").list();
    assertThat(containers).hasSize(1);
    return containers.getFirst();
  }

  private Map<String, String> podLabels() {
    return deployment().get("spec", "template", "metadata", "labels").strings();
  }

  /** The container port a probe or Service names, by name or number. */
  private int containerPort(String nameOrNumber) {
    for (YamlNode port : container().get("ports").list()) {
      if (port.get("name").text().equals(nameOrNumber)
          || port.get("containerPort").text().equals(nameOrNumber)) {
        return port.get("containerPort").integer();
      }
    }
    throw new AssertionError("the container has no port " + nameOrNumber);
  }

  @Test
  void everyManifestNamesItsApiKindAndNameAndLivesInTheNamespace() {
    assertThat(resources).hasSizeGreaterThanOrEqualTo(7);
    for (YamlNode resource : resources) {
      assertThat(resource.get("apiVersion").text()).as(resource.where()).isNotBlank();
      assertThat(resource.get("metadata", "name").text()).as(resource.where()).isNotBlank();
      if (resource.get("kind").text().equals("Namespace")) {
        assertThat(resource.get("metadata", "name").text()).isEqualTo(NAMESPACE);
      } else {
        assertThat(resource.get("metadata", "namespace").text())
            .as(resource.where())
            .isEqualTo(NAMESPACE);
      }
    }
  }

  @Test
  void kustomizationAppliesEveryManifestButTheSecretExample() {
    YamlNode kustomization = DeployFiles.yaml(folder.resolve("kustomization.yaml"));

    List<String> listed =
        kustomization.get("resources").list().stream().map(YamlNode::text).toList();
    List<String> manifests =
        DeployFiles.files(folder, ".yaml").stream()
            .map(file -> file.getFileName().toString())
            .filter(name -> !name.equals("kustomization.yaml"))
            .filter(name -> !name.equals("secret.example.yaml"))
            .toList();
    assertThat(listed).containsExactlyInAnyOrderElementsOf(manifests);
    assertThat(kustomization.get("namespace").text()).isEqualTo(NAMESPACE);
  }

  @Test
  void deploymentRunsAtLeastTwoReplicasAndKeepsThemDuringARollout() {
    YamlNode spec = deployment().get("spec");

    assertThat(spec.get("replicas").integer()).isGreaterThanOrEqualTo(2);
    assertThat(spec.get("strategy", "type").text()).isEqualTo("RollingUpdate");
    assertThat(spec.get("strategy", "rollingUpdate", "maxUnavailable").integer()).isZero();
  }

  @Test
  void probesUseTheHealthEndpointsOnTheServersPort() {
    YamlNode container = container();
    int serverPort = Integer.parseInt(only("ConfigMap").get("data", "QUARKUS_HTTP_PORT").text());

    assertThat(container.get("readinessProbe", "httpGet", "path").text())
        .isEqualTo("/q/health/ready");
    assertThat(container.get("livenessProbe", "httpGet", "path").text())
        .isEqualTo("/q/health/live");
    assertThat(container.get("startupProbe", "httpGet", "path").text())
        .isEqualTo("/q/health/started");
    for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
      assertThat(containerPort(container.get(probe, "httpGet", "port").text()))
          .as(probe + " port")
          .isEqualTo(serverPort);
    }
  }

  @Test
  void podsRunAsTheImagesNonRootUserWithoutPrivileges() {
    YamlNode pod = podSpec().get("securityContext");
    YamlNode container = container().get("securityContext");

    assertThat(pod.get("runAsNonRoot").value()).isEqualTo(true);
    assertThat(pod.get("runAsUser").integer())
        .isNotZero()
        .isEqualTo(ContainerImageTest.imageUser(DeployFiles.deploy()));
    assertThat(container.get("allowPrivilegeEscalation").value()).isEqualTo(false);
    assertThat(container.get("capabilities", "drop").list())
        .extracting(YamlNode::text)
        .containsExactly("ALL");
  }

  @Test
  void aReadOnlyRootFilesystemStillHasAWritableTmp() {
    assertThat(container().get("securityContext", "readOnlyRootFilesystem").value())
        .isEqualTo(true);

    YamlNode mount =
        container().get("volumeMounts").list().stream()
            .filter(candidate -> candidate.get("mountPath").text().equals("/tmp"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("nothing is mounted at /tmp"));
    YamlNode volume =
        podSpec().get("volumes").list().stream()
            .filter(candidate -> candidate.get("name").text().equals(mount.get("name").text()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no volume " + mount.get("name").text()));
    assertThat(volume.has("emptyDir")).isTrue();
  }

  @Test
  void containerRequestsCpuAndMemoryAndLimitsMemory() {
    YamlNode resources = container().get("resources");

    assertThat(resources.get("requests").map()).containsKeys("cpu", "memory");
    assertThat(resources.get("limits").map()).containsKey("memory");
  }

  @Test
  void imageIsAPinnedVersionNotLatest() {
    String image = container().get("image").text();

    assertThat(image).contains(":").doesNotEndWith(":latest");
  }

  @Test
  void deploymentServiceAndDisruptionBudgetSelectTheDeploymentsPods() {
    Map<String, String> labels = podLabels();

    assertThat(labels)
        .containsAllEntriesOf(deployment().get("spec", "selector", "matchLabels").strings());
    assertThat(labels).containsAllEntriesOf(only("Service").get("spec", "selector").strings());
    assertThat(labels)
        .containsAllEntriesOf(
            only("PodDisruptionBudget").get("spec", "selector", "matchLabels").strings());
    assertThat(only("Service").get("spec", "selector").strings()).isNotEmpty();
  }

  @Test
  void disruptionBudgetKeepsOneReplicaAndStillAllowsADrain() {
    int minAvailable = only("PodDisruptionBudget").get("spec", "minAvailable").integer();

    assertThat(minAvailable).isEqualTo(1);
    assertThat(minAvailable).isLessThan(deployment().get("spec", "replicas").integer());
  }

  @Test
  void serviceForwardsToTheContainerPort() {
    YamlNode port = only("Service").get("spec", "ports").list().getFirst();

    assertThat(containerPort(port.get("targetPort").text()))
        .isEqualTo(Integer.parseInt(only("ConfigMap").get("data", "QUARKUS_HTTP_PORT").text()));
  }

  @Test
  void configurationComesFromTheConfigMapAndTheSecret() {
    List<YamlNode> sources = container().get("envFrom").list();
    String configMap = only("ConfigMap").get("metadata", "name").text();
    String secret = only("Secret").get("metadata", "name").text();

    assertThat(sources)
        .extracting(
            source -> source.find("configMapRef").map(ref -> ref.get("name").text()).orElse(""))
        .contains(configMap);
    assertThat(sources)
        .extracting(
            source -> source.find("secretRef").map(ref -> ref.get("name").text()).orElse(""))
        .contains(secret);
  }

  @Test
  void everySettingIsOneTheServerReads() {
    Set<String> configMapKeys = only("ConfigMap").get("data").map().keySet();
    Set<String> secretKeys = only("Secret").get("stringData").map().keySet();

    assertThat(DeployFiles.unknownToTheServer(configMapKeys))
        .as("unknown ConfigMap keys")
        .isEmpty();
    assertThat(DeployFiles.unknownToTheServer(secretKeys)).as("unknown Secret keys").isEmpty();
    assertThat(configMapKeys).contains("QUARKUS_DATASOURCE_JDBC_URL");
    assertThat(secretKeys).contains("QUARKUS_DATASOURCE_PASSWORD");
  }

  @Test
  void credentialsAreInTheSecretNeverInTheConfigMap() {
    Set<String> configMapKeys = only("ConfigMap").get("data").map().keySet();

    assertThat(configMapKeys)
        .noneMatch(
            key -> key.contains("PASSWORD") || key.contains("SECRET") || key.contains("TOKEN"));
    assertThat(only("ConfigMap").get("data", "QUARKUS_DATASOURCE_JDBC_URL").text())
        .doesNotContain("password=");
  }

  @Test
  void theSecretExampleHoldsPlaceholdersThatSayTheyArePlaceholders() {
    YamlNode secret = only("Secret");

    assertThat(secret.where()).startsWith("secret.example.yaml");
    assertThat(secret.get("stringData", "QUARKUS_DATASOURCE_PASSWORD").text())
        .contains("PLACEHOLDER");
    assertThat(DeployFiles.read(folder.resolve("secret.example.yaml")))
        .contains("EXAMPLE ONLY")
        .contains(
            "kubectl -n team-memory create secret generic "
                + secret.get("metadata", "name").text());
  }

  @Test
  void ingressTerminatesTlsForEveryHostAndRoutesToTheService() {
    YamlNode ingress = only("Ingress");
    YamlNode service = only("Service");
    List<String> tlsHosts = new ArrayList<>();
    for (YamlNode tls : ingress.get("spec", "tls").list()) {
      assertThat(tls.get("secretName").text()).isNotBlank();
      tls.get("hosts").list().forEach(host -> tlsHosts.add(host.text()));
    }
    Set<String> servicePorts =
        Set.copyOf(
            service.get("spec", "ports").list().stream()
                .map(port -> port.get("name").text())
                .toList());

    for (YamlNode rule : ingress.get("spec", "rules").list()) {
      assertThat(tlsHosts).contains(rule.get("host").text());
      for (YamlNode path : rule.get("http", "paths").list()) {
        YamlNode backend = path.get("backend", "service");
        assertThat(backend.get("name").text()).isEqualTo(service.get("metadata", "name").text());
        assertThat(servicePorts).contains(backend.get("port", "name").text());
      }
    }
  }

  @Test
  void ingressWaitsLongerThanTheLongestChangeFeedPoll() {
    // PROTOCOL.md: the change feed long-polls for at most 60 s.
    Map<String, String> annotations = only("Ingress").get("metadata", "annotations").strings();

    assertThat(Integer.parseInt(annotations.get("nginx.ingress.kubernetes.io/proxy-read-timeout")))
        .isGreaterThan(60);
  }

  @Test
  void metricsAnnotationsPointAtThePrometheusEndpoint() {
    Map<String, String> annotations =
        deployment().get("spec", "template", "metadata", "annotations").strings();

    assertThat(annotations.get("prometheus.io/path")).isEqualTo("/q/metrics");
    assertThat(containerPort(annotations.get("prometheus.io/port"))).isEqualTo(8080);
  }
}
