package io.jdra.cli.up;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.auth.UserInfo;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each component of {@code jdra up} gets its own identity and token. */
class IdentitiesTest {
  @Test
  void oneIdentityPerComponentAsOnAKubeadmCluster() {
    Identities ids = Identities.forCluster(2);

    assertThat(ids.controllerManager().user().name()).isEqualTo("system:kube-controller-manager");
    assertThat(ids.scheduler().user().name()).isEqualTo("system:kube-scheduler");
    assertThat(ids.kubelet("node-2").user().nodeName()).contains("node-2");
    assertThat(ids.kubelet("node-2").user().groups()).contains(UserInfo.NODES_GROUP);
    UserInfo driver = ids.driver("node-1").user();
    assertThat(driver.name())
        .isEqualTo("system:serviceaccount:dra-example-driver:dra-example-driver-service-account");
    assertThat(driver.extra()).containsEntry(UserInfo.NODE_NAME_EXTRA, List.of("node-1"));
    assertThat(driver.nodeName()).isEmpty();
    UserInfo controller = ids.exampleController().user();
    assertThat(controller.name()).isEqualTo(driver.name());
    assertThat(controller.extra()).as("no node: the chart runs it as a Deployment").isEmpty();

    assertThat(ids.all()).hasSize(7);
    assertThat(new HashSet<>(ids.tokenUsers().keySet())).as("distinct tokens").hasSize(7);
    assertThat(Identities.forCluster(2).scheduler().token())
        .as("new tokens at every start")
        .isNotEqualTo(ids.scheduler().token());
  }
}
