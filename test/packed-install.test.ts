/**
 * The package as users get it (issue 46): `npm pack`, installed into an empty folder with runtime
 * dependencies only, once for the file. From that install: the patched postgres.js runs (a driver
 * loaded from the install's node_modules was the registry's, without the fix of patches/), a
 * webhook signed so that standardwebhooks verifies it, an e-mail through a real SMTP server, the registry's OpenAPI
 * description read by `doctor`, and the console: a user added with the password on stdin signs in,
 * an .xlsx payment batch is checked and its verdicts come back as a workbook. The emulator of the
 * same install stands in for the registry.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, SECRET, startReceiver, startSmtp } from "./alerts/harness.ts";
import { runProcess } from "./helpers/cli.ts";
import { closingProxy } from "./helpers/closing-proxy.ts";
import { getPage, signIn, startWebProcess } from "./helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "./helpers/emulator-process.ts";
import { pkg } from "./helpers/package-manifest.ts";
import { installPacked, type PackedInstall } from "./helpers/packed-install.ts";

const PASSWORD = "a long enough pass phrase";
const UUID = /^\/payments\/([0-9a-f-]{36})$/;

let packed: PackedInstall;
let t: TestDatabase;
let emulator: EmulatorProcess;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  // Each kept as it comes, so that afterAll closes what started when another part failed.
  await Promise.all([
    installPacked().then((install) => {
      packed = install;
    }),
    createTestDatabase().then((database) => {
      t = database;
    }),
    startReceiver().then((started) => {
      receiver = started;
    }),
    startSmtp().then((started) => {
      smtp = started;
    }),
  ]);
  emulator = await startEmulatorProcess(["--seed", "5", "--businesses", "200"], packed.bin);
}, 300_000);
afterAll(async () => {
  await emulator?.stop();
  await receiver?.close();
  await smtp?.close();
  await t?.drop();
  await packed?.remove();
});

/** Everything a command of these tests may need: the database, the registry, both alert channels. */
const env = () => ({
  DATABASE_URL: t.url,
  REGWATCH_WATCH_URL: emulator.watchUrl,
  REGWATCH_SEARCH_URL: emulator.searchUrl,
  REGWATCH_API_KEY: emulator.apiKey,
  REGWATCH_WEBHOOK_SECRET: SECRET,
  // The receiver listens on 127.0.0.1: private targets are allowed explicitly.
  REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
  REGWATCH_SMTP_URL: smtp.url,
  REGWATCH_MAIL_FROM: "regwatch@example.com",
  REGWATCH_LOG_LEVEL: "warn",
});

/** The installed `regwatch ARGS`, started from the install's folder as a user would start it. */
const regwatch = (args: string[], extra: Record<string, string> = {}, input?: string) =>
  runProcess(packed.bin, args, { ...env(), ...extra }, 60_000, packed.dir, input);

describe("the packed install", () => {
  it("holds the build and no sources", async () => {
    const version = await regwatch(["--version"]);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(existsSync(path.join(packed.root, "dist", "cli.js"))).toBe(true);
    expect(existsSync(path.join(packed.root, "src"))).toBe(false);
  });

  it.each([
    ["status", ["status"]],
    ["a command of dist/cli.js", ["alerts", "list"]],
  ])(
    "runs the patched driver (%s): an address whose every start-up is closed fails after connect_timeout",
    async (_, args) => {
      const proxy = await closingProxy();
      try {
        // Unpatched, the driver tries again at once and for ever: the command never ends.
        const run = await runProcess(
          packed.bin,
          args,
          { DATABASE_URL: `postgres://regwatch@127.0.0.1:${proxy.port}/regwatch?connect_timeout=1` },
          20_000,
          packed.dir,
        );
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toContain(
          `could not connect to the database at 127.0.0.1:${proxy.port} (CONNECTION_CLOSED)`,
        );
        expect(proxy.accepted()).toBeLessThan(30);
      } finally {
        await proxy.close();
      }
    },
  );

  it("sends a signed webhook that the receiver verifies", async () => {
    const rule = await regwatch([
      "alerts",
      "rule",
      "add",
      "hook",
      "--channel",
      "webhook",
      "--target",
      receiver.url,
    ]);
    expect(rule.code, rule.stderr).toBe(0);
    const sent = await regwatch(["alerts", "test", "hook"]);
    expect(sent.code, sent.stderr).toBe(0);
    const last = receiver.received.at(-1);
    expect(last?.verifyError).toBeUndefined();
    expect(last).toMatchObject({
      verified: true,
      body: { type: "test", data: { rule: "hook", test: true } },
    });
  });

  it("sends an e-mail through an SMTP server", async () => {
    const rule = await regwatch([
      "alerts",
      "rule",
      "add",
      "mail",
      "--channel",
      "email",
      "--target",
      "ops@example.com",
    ]);
    expect(rule.code, rule.stderr).toBe(0);
    const sent = await regwatch(["alerts", "test", "mail"]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(smtp.mails.at(-1)).toMatchObject({ from: "regwatch@example.com", to: ["ops@example.com"] });
  });

  it("reads the registry's OpenAPI description (doctor)", async () => {
    const doctor = await regwatch(["doctor"]);
    expect(doctor.stdout).toMatch(
      new RegExp(
        `^ok +description +read from ${emulator.watchUrl.replaceAll(".", "\\.")}/openapi\\.json: `,
        "m",
      ),
    );
    expect(doctor.code, doctor.stdout).toBe(0);
  });

  it("serves the console to a signed-in user, who checks an .xlsx batch and downloads its verdicts as one", async () => {
    const added = await regwatch(
      ["users", "add", "vera", "--role", "reviewer", "--password-stdin"],
      {},
      `${PASSWORD}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
    const web = await startWebProcess(`${packed.root}/bin/regwatch.js`, { DATABASE_URL: t.url });
    try {
      const session = await signIn(web.url, "vera", PASSWORD);
      const home = await getPage(`${web.url}/`, session);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("vera");

      const taxIds = (await emulator.admin<{ tax_id: string }[]>("businesses?limit=3")).map((b) => b.tax_id);
      const batch = new ExcelJS.Workbook();
      const sheet = batch.addWorksheet("Utalások");
      sheet.addRow(["Adószám", "Számlaszám", "Összeg", "Pénznem"]);
      for (const [i, taxId] of taxIds.entries()) sheet.addRow([taxId, "11773016-11111018", 1000 + i, "HUF"]);
      const form = new FormData();
      form.append("_csrf", session.csrf);
      form.append("file", new Blob([Buffer.from(await batch.xlsx.writeBuffer())]), "utalas.xlsx");
      const uploaded = await fetch(`${web.url}/payments`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: session.cookie },
        body: form,
      });
      expect(uploaded.status, await uploaded.clone().text()).toBe(303);
      const id = UUID.exec(uploaded.headers.get("location") ?? "")?.[1];
      expect(id).toBeDefined();

      const download = await getPage(`${web.url}/payments/${id}.xlsx`, session);
      expect(download.status).toBe(200);
      const verdicts = new ExcelJS.Workbook();
      await verdicts.xlsx.load(Buffer.from(await download.arrayBuffer()) as never);
      const cells = verdicts.getWorksheet("payments")!.getSheetValues().flat().map(String);
      for (const taxId of taxIds) expect(cells).toContain(taxId);
    } finally {
      expect(await web.stop()).toBe(0);
    }
  });
});
