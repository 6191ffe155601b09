import { DEPLOY_PORT } from '../cli.constants.js';
import { START_COMMAND_LINE } from './deploy-files.js';

/** Values filled into the guide; placeholders when not given. */
export interface CloudGuideInput {
  appName?: string;
  region?: string;
  /** Secret names from `.env`, e.g. `['OPENAI_API_KEY']`. */
  secrets: readonly string[];
  /** The app file already has `export default app.handler` (every template's has). */
  exportsHandler?: boolean;
}

/**
 * The manual AWS-style deployment guide `toolkit deploy cloudguide` prints: (1) serverless
 * functions behind an API gateway, (2) a container service (ECS/Fargate), (3) a managed
 * application platform (Elastic Beanstalk). Nothing is deployed automatically.
 *
 * @example
 * renderCloudGuide({ appName: 'my-bot', region: 'eu-west-1', secrets: ['OPENAI_API_KEY'] });
 */
export function renderCloudGuide(input: CloudGuideInput): string {
  const app = input.appName ?? '<app-name>';
  const region = input.region ?? '<region>';
  const key = input.secrets[0] ?? 'OPENAI_API_KEY';
  const secretList = input.secrets.join(', ') || key;
  return `Manual deployment guide (AWS-style). toolkit deploys nothing here; follow one of the three routes.
Secrets to provide: ${secretList} (never bake .env into an image or a bundle).

1. Serverless functions behind an API gateway (AWS Lambda + API Gateway)
   - ${handlerStep(input.exportsHandler === true)}
     Wrap it for Lambda events with an adapter such as
     serverless-http:  export const handler = serverless(app.handler);
     or run "${START_COMMAND_LINE}" unchanged with the AWS Lambda Web Adapter layer (PORT=${DEPLOY_PORT}).
   - Bundle the project with its node_modules, create the function (Node.js 20 runtime,
     handler "app.handler"), memory 512 MB or more, timeout 30 s or more for LLM calls.
   - Create an HTTP API in API Gateway with the route "ANY /{proxy+}" integrated with the function:
       aws apigatewayv2 create-api --name ${app} --protocol-type HTTP --target <function-arn> --region ${region}
   - Secrets: store ${key} in Secrets Manager or SSM Parameter Store and expose it to the function
     as an environment variable:
       aws lambda update-function-configuration --function-name ${app} --environment "Variables={${key}=<value>}" --region ${region}
   - Check: curl https://<api-id>.execute-api.${region}.amazonaws.com/health/ready
     (/health answers while the process lives; /health/ready also pings Redis/PostgreSQL).

2. Container service (Amazon ECS on Fargate)
   - Dockerfile:
       FROM node:20-slim
       WORKDIR /app
       COPY package*.json ./
       RUN npm ci --omit=dev
       COPY . .
       ENV PORT=${DEPLOY_PORT} HOST=0.0.0.0
       EXPOSE ${DEPLOY_PORT}
       CMD ["${START_COMMAND_LINE.split(' ')[0]}", "start"]
   - Build and push to ECR:
       aws ecr create-repository --repository-name ${app} --region ${region}
       docker build -t ${app} . && docker tag ${app} <account>.dkr.ecr.${region}.amazonaws.com/${app}:latest
       docker push <account>.dkr.ecr.${region}.amazonaws.com/${app}:latest
   - Task definition: container port ${DEPLOY_PORT}, health check (liveness: restarts the task)
     "curl -f http://localhost:${DEPLOY_PORT}/health",
     secrets: [{ "name": "${key}", "valueFrom": "<secrets-manager-arn>" }].
   - Service: Fargate launch type behind an Application Load Balancer whose target group
     checks GET /health/ready on port ${DEPLOY_PORT} (readiness: 503 while a backend is down takes
     the task out of rotation without restarting it); run 2+ tasks and share state through Redis/PostgreSQL.

3. Managed application platform (AWS Elastic Beanstalk, Node.js platform)
   - Procfile (the platform runs it): web: ${START_COMMAND_LINE}
   - eb init ${app} --platform node.js --region ${region}
   - eb create ${app}-env --envvars PORT=${DEPLOY_PORT}
   - Secrets: eb setenv ${key}=<value>
   - Health: set the environment's health check URL to /health/ready (503 while Redis/PostgreSQL
     is down); deploy updates with eb deploy.
`;
}

/** The first step of the serverless route: the request handler the app exports. */
function handlerStep(exported: boolean): string {
  return exported
    ? 'app.ts exports the request handler already ("export default app.handler;", a Node\n     (req, res) handler).'
    : 'The app must export a request handler: in app.ts add "export default app.handler;"\n     (a Node (req, res) handler).';
}
