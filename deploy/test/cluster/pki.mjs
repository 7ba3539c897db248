// The one-node cluster's certificates, made with openssl for each run (they
// live a day and go with the run's folder): a CA, the API server's serving
// certificate, and one client certificate in system:masters that every
// component, kubectl and helm use (a test cluster with one user).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const openssl = (args, cwd) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/** A key and a certificate signed by the CA; `ext` is the openssl extension section. */
function signed(dir, name, subject, ext) {
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(
    ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject],
    dir,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-out',
      `${name}.crt`,
      '-extfile',
      `${name}.ext`,
    ],
    dir,
  );
}

/** Writes the files under `dir` and returns their paths. `addresses`: the API server's IPs. */
export function makePki(dir, { addresses, serviceIp }) {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '1',
      '-subj',
      '/CN=vault-test-cluster-ca',
    ],
    dir,
  );
  const names = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
  const san = [...names.map((n) => `DNS:${n}`), ...[...addresses, serviceIp].map((ip) => `IP:${ip}`)].join(',');
  signed(
    dir,
    'apiserver',
    '/CN=kube-apiserver',
    `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`,
  );
  signed(
    dir,
    'admin',
    '/O=system:masters/CN=vault-test-admin',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n',
  );
  // Service account tokens: signed by the API server, checked by it.
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key'], dir);
  openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  const path = (file) => join(dir, file);
  return {
    ca: path('ca.crt'),
    apiserverCert: path('apiserver.crt'),
    apiserverKey: path('apiserver.key'),
    adminCert: path('admin.crt'),
    adminKey: path('admin.key'),
    saKey: path('sa.key'),
    saPub: path('sa.pub'),
  };
}

/** A kubeconfig for the admin certificate. */
export function writeKubeconfig(file, { server, pki }) {
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
  - name: vault-test
    cluster: { server: "${server}", certificate-authority: "${pki.ca}" }
users:
  - name: admin
    user: { client-certificate: "${pki.adminCert}", client-key: "${pki.adminKey}" }
contexts:
  - name: vault-test
    context: { cluster: vault-test, user: admin }
current-context: vault-test
`,
  );
  return file;
}
