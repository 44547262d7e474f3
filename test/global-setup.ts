// Filled in by the platform: prepares database templates once per run.
export default async function setup(): Promise<void> {}
